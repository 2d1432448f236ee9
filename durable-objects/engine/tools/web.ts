/** The web tool family: web_fetch (a URL as Markdown, JSON or text) and web_search (the workspace's engine). */
import { z } from "zod";
import type { SearchSettings } from "../../../schemas/settings";
import type { WebConfig } from "../config/web-config";
import { DOCX_TYPE, DocxError } from "../docx/docx-text";
import {
  type BodyKind,
  binaryNote,
  formatSize,
  kindOf,
  mediaType,
  type Rendered,
  renderBody,
  renderDocx,
  renderPdf,
  sniffKind,
} from "./web-content";
import type { DomainPolicy } from "../net/allowed-domains";
import { type FetchedPage, fetchPage } from "../net/fetch-page";
import { PDF_TYPE, PdfError } from "../pdf/pdf-text";
import { runSearch } from "../search";
import { bytesText, durationText, retryAfterText } from "./limit-text";
import { defineTool, ToolError } from "./tool";

/** Content longer than this is cut (and `truncated` set) even without a max_length. */
export const DEFAULT_MAX_CONTENT_CHARS = 40_000;
/** At most this much of a page goes to the model for a `prompt` summary. */
export const MAX_SUMMARY_INPUT_CHARS = 100_000;
/** web_search's default result count (the tool spec's). */
export const DEFAULT_SEARCH_RESULTS = 5;
/** web_search's maximum result count (the tool spec's). */
export const MAX_SEARCH_RESULTS = 10;

/** What the web tools need from their conversation. */
export interface WebToolDeps {
  config: WebConfig;
  /** Summarises text following a prompt, with the conversation's model. */
  summarize(text: string, prompt: string, signal: AbortSignal): Promise<string>;
  /** The workspace's search settings (engine and keys). */
  searchSettings(): Promise<SearchSettings>;
  /** The workspace's and conversation's allowed_domains, applied to web_fetch (every redirect hop too). */
  domains?: DomainPolicy;
}

/** web_fetch's parameters. */
export const WebFetchArgs = z.object({
  url: z.string().min(1).describe("The URL to fetch (http or https only)"),
  prompt: z
    .string()
    .min(1)
    .optional()
    .describe(
      "If given, the page is summarised by the model following this prompt, and the summary is returned",
    ),
  max_length: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of characters of content to return (at most ${DEFAULT_MAX_CONTENT_CHARS})`),
});

/** web_search's parameters. */
export const WebSearchArgs = z.object({
  query: z.string().trim().min(1).max(500).describe("The search keywords"),
  max_results: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of results (default ${DEFAULT_SEARCH_RESULTS}, at most ${MAX_SEARCH_RESULTS})`),
});

function parseUrl(raw: string): URL {
  try {
    return new URL(raw.trim());
  } catch {
    throw new ToolError(
      "invalid_url",
      `"${raw}" is not a valid absolute URL (e.g. https://example.com/page).`,
    );
  }
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length > max ? { text: text.slice(0, max), cut: true } : { text, cut: false };
}

/** Documents read whole (a cut-short one cannot be read): their byte cap, its variable, their media type. */
const DOCUMENTS = {
  pdf: { name: "PDF", cap: "fetchMaxPdfBytes", variable: "WEB_FETCH_MAX_PDF_BYTES", type: PDF_TYPE },
  docx: { name: "DOCX", cap: "fetchMaxDocxBytes", variable: "WEB_FETCH_MAX_DOCX_BYTES", type: DOCX_TYPE },
} as const;

const isDocument = (kind: BodyKind | null): kind is keyof typeof DOCUMENTS =>
  kind === "pdf" || kind === "docx";

/** How many bytes of a body of this kind are read; untyped bodies (sniffed later) up to the largest cap. */
function byteCap(config: WebConfig, kind: BodyKind | null): number {
  if (isDocument(kind)) return config[DOCUMENTS[kind].cap];
  if (kind !== null) return config.fetchMaxBytes;
  return Math.max(config.fetchMaxBytes, config.fetchMaxPdfBytes, config.fetchMaxDocxBytes);
}

/** Turns the downloaded body into text and the metadata its document states. */
async function render(deps: WebToolDeps, page: FetchedPage, kind: BodyKind, type: string | null) {
  if (kind === "binary") return { text: binaryNote(type, page.size), metadata: {} } satisfies Rendered;
  if (!isDocument(kind)) return renderBody(kind, page.bytes, page.contentType, page.finalUrl);
  const doc = DOCUMENTS[kind];
  if (page.capped)
    throw new ToolError(
      `${kind}_too_large`,
      `The ${doc.name} at ${page.finalUrl} is larger than web_fetch's ${doc.name} limit of ${formatSize(deps.config[doc.cap])} (${doc.variable}); a ${doc.name} cut short cannot be read.`,
    );
  try {
    return await (kind === "pdf" ? renderPdf(page.bytes) : renderDocx(page.bytes));
  } catch (err) {
    if (err instanceof PdfError || err instanceof DocxError) throw new ToolError(err.code, err.message);
    throw err;
  }
}

/** A bot check answered instead of the page: only a browser running its scripts (or a person) gets past it. */
const botCheck = (url: string) =>
  new ToolError(
    "bot_check",
    `${url} answered with a bot check (a challenge page that needs a browser running its scripts), not the page. Open it with open_tab and read it with get_tab_content; if the tab shows a CAPTCHA, call request_takeover.`,
  );

/** An HTTP error status, with the start of the page's text and when the server asks to be retried. */
async function statusError(deps: WebToolDeps, page: FetchedPage, kind: BodyKind, type: string | null) {
  const body = isDocument(kind)
    ? { text: `(a ${DOCUMENTS[kind].name})` }
    : await render(deps, page, kind, type);
  const retry = page.retryAfter
    ? ` The server asks to be retried after ${retryAfterText(page.retryAfter)}.`
    : "";
  return new ToolError(
    "http_error",
    `${page.finalUrl} answered HTTP ${page.status}${page.statusText ? ` ${page.statusText}` : ""}.${retry} Page text: ${body.text.slice(0, 500)}`,
  );
}

/** Fetches and renders one URL as the tool spec's return shape, with the document's metadata beside it. */
async function webFetch(deps: WebToolDeps, args: z.infer<typeof WebFetchArgs>, signal: AbortSignal) {
  const url = parseUrl(args.url);
  const page = await fetchPage(url.href, {
    timeoutMs: deps.config.fetchTimeoutMs,
    maxBytes: (ct) => byteCap(deps.config, kindOf(mediaType(ct))),
    policy: { ...deps.config, ...deps.domains },
    signal,
    wantsBody: (ct) => kindOf(mediaType(ct)) !== "binary",
  });
  const declared = mediaType(page.contentType);
  const kind = kindOf(declared) ?? (page.bytes.length ? sniffKind(page.bytes) : "binary");
  // Untyped bytes were read up to the largest cap; what they turn out to be keeps its own cap.
  const cap = byteCap(deps.config, kind);
  if (kindOf(declared) === null && page.bytes.length > cap) {
    page.bytes = page.bytes.subarray(0, cap);
    page.capped = true;
  }
  const type = isDocument(kind) ? DOCUMENTS[kind].type : declared;
  if (page.challenged) throw botCheck(page.finalUrl);
  if (page.status >= 400) throw await statusError(deps, page, kind, type);
  const rendered = await render(deps, page, kind, type);
  let content = rendered.text;
  let truncated = page.capped || rendered.truncated === true;
  if (args.prompt && kind !== "binary") {
    const input = cut(content, MAX_SUMMARY_INPUT_CHARS);
    truncated ||= input.cut;
    try {
      content = await deps.summarize(input.text, args.prompt, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ToolError(
        "summary_failed",
        `The page was fetched but could not be summarised: ${(err as Error).message}`,
      );
    }
  }
  const out = cut(content, Math.min(args.max_length ?? DEFAULT_MAX_CONTENT_CHARS, DEFAULT_MAX_CONTENT_CHARS));
  return {
    url: args.url,
    content_type:
      type ?? (kind === "html" ? "text/html" : kind === "json" ? "application/json" : "text/plain"),
    content: out.text,
    truncated: truncated || out.cut,
    final_url: page.finalUrl,
    ...rendered.metadata,
  };
}

/** Creates web_fetch and web_search. */
export function createWebTools(deps: WebToolDeps) {
  return [
    defineTool({
      name: "web_fetch",
      description: `Fetch a URL over HTTP(S). HTML pages come back as the main content in Markdown (navigation, sidebars and ads removed), PDFs as their text page by page, Word documents (DOCX) as Markdown, JSON pretty-printed, plain text as is; title, author, published_at, site_name and language are returned when the document states them. Give a prompt to get a summary of the page instead of its text. Gives up after ${durationText(deps.config.fetchTimeoutMs)}; only the first ${bytesText(deps.config.fetchMaxBytes)} of a page are read, and of an HTML page's markup, scripts and styles aside, the first million characters (truncated: true says so), PDFs up to ${bytesText(deps.config.fetchMaxPdfBytes)} and DOCX up to ${bytesText(deps.config.fetchMaxDocxBytes)}.`,
      parameters: WebFetchArgs,
      execute: (args, ctx) => webFetch(deps, args, ctx.signal),
    }),
    defineTool({
      name: "web_search",
      description:
        "Search the web with the workspace's search engine. Returns [{title, url, snippet}]; fetch a result's url with web_fetch to read it.",
      parameters: WebSearchArgs,
      execute: async (args, ctx) => {
        const settings = await deps.searchSettings();
        const count = Math.min(args.max_results ?? DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS);
        return runSearch(settings, args.query, count, {
          policy: deps.config,
          timeoutMs: deps.config.searchTimeoutMs,
          signal: ctx.signal,
        });
      },
    }),
  ];
}
