/**
 * Reads the `curl` walkthrough of a Markdown section (README's "A conversation with curl"): each
 * command with its method, URL, headers and body, and the `#` lines right under it, which show
 * what it answers. The walkthrough test runs the commands and checks those answers.
 */

export interface CurlStep {
  /** The `#` line just above the command's paragraph, e.g. "create a conversation". */
  title: string;
  method: string;
  /** As written, e.g. `$CIRRUS/v1/conversations/conv_…/messages`. */
  url: string;
  headers: [string, string][];
  body?: string;
  /** The `#` lines right under the command (its shown answer), without the `# `. */
  shown: string[];
}

/** The first ```sh block after a heading. */
export function shellBlock(markdown: string, heading: string): string {
  const from = markdown.indexOf(`\n${heading}\n`);
  if (from < 0) throw new Error(`no section "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(markdown.slice(from));
  if (!block) throw new Error(`no sh block under "${heading}"`);
  return block[1];
}

/** Shell words of one command line: '…' and "…" quoting, no expansion. */
export function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The curl commands of a shell block, continuation lines joined. */
export function curlSteps(block: string): CurlStep[] {
  const lines = block.replace(/\\\n\s*/g, "").split("\n");
  const steps: CurlStep[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith("curl ")) return;
    const shown: string[] = [];
    for (let j = i + 1; lines[j]?.startsWith("#"); j++) shown.push(lines[j].replace(/^# ?/, ""));
    const title = lines[i - 1]?.startsWith("#") ? lines[i - 1].replace(/^# ?/, "") : "";
    steps.push({ title, ...parseCurl(words(line)), shown });
  });
  return steps;
}

function parseCurl(args: string[]): Omit<CurlStep, "title" | "shown"> {
  let method = "GET";
  let url = "";
  let body: string | undefined;
  const headers: [string, string][] = [];
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (a === "-X") method = args[++i];
    else if (a === "-H") {
      const h = args[++i];
      const colon = h.indexOf(":");
      headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (a === "-d") body = args[++i];
    else if (a.startsWith("$")) url = a;
    else if (a !== "-s" && a !== "-N") throw new Error(`curl option not understood: ${a}`);
  }
  if (body !== undefined && method === "GET") method = "POST";
  return { method, url, headers, body };
}

/**
 * The fields a shown JSON answer names, e.g. `{"id":"conv_…","object":"conversation",…}`: each
 * field with the text it starts with (`…` ends a prefix) or `{…}` for any object.
 */
export function shownFields(shown: string): [string, string | "object"][] {
  return [...shown.matchAll(/"(\w+)":(?:"([^"]*)"|(\{…\}))/g)].map(([, key, text, obj]) => [
    key,
    obj ? "object" : text,
  ]);
}

/** Whether a value matches a shown field: exact, a prefix before `…`, or any object. */
export function matchesShown(value: unknown, shown: string | "object"): boolean {
  if (shown === "object") return typeof value === "object" && value !== null;
  if (typeof value !== "string") return false;
  const cut = shown.indexOf("…");
  return cut < 0 ? value === shown : value.startsWith(shown.slice(0, cut));
}
