/**
 * The error classes of Cirrus: one base (`name` is the subclass, a stable `code`, the `cause`
 * kept) and one subclass per kind, as OpenAI's Agents SDK does. Libraries throw their own kind;
 * the tool layer turns any of them into the result the model reads, the Worker into HTTP.
 */

/** The base of every error Cirrus raises on purpose. */
export class CirrusError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A CirrusError whose code is one of a closed set `C` (a library's own codes, typed). */
export class CodedError<C extends string> extends CirrusError {
  constructor(
    override readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The Worker's configuration (vars, secrets) is invalid; names the variable. */
export class ConfigError extends CirrusError {}

/** A URL was refused (scheme, credentials, private address, domain policy) or could not be fetched. */
export class NetError extends CirrusError {}

/** A search engine could not be reached or answered something unreadable. */
export class SearchError extends CirrusError {}

/** A browser action failed: no such tab, a refused navigation, a script that threw or ran too long. */
export class BrowserError extends CirrusError {}
