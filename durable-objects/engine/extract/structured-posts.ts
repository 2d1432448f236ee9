/**
 * What a thread says of itself in structured data: microdata attributes written in camelCase by
 * script renderers (`itemType`, `itemProp`), which HTML reads case-insensitively but the parser
 * does not, and the posts of a JSON-LD `DiscussionForumPosting` / `QAPage` for threads whose
 * posts are rendered by script and absent from the HTML.
 */

import { type LdNode, ldIs } from "./metadata";

/** Microdata attribute names in any case other than lower (`itemType=`, `itemProp=`, `ITEMSCOPE`). */
const MICRODATA_NAME = /(\s)(item(?:type|prop|scope|id|ref))(?=[\s=>/])/gi;
/** The HTML with its microdata attribute names lower-cased, as a browser reads them (the text is scanned only when one is camelCase). */
export function lowerMicrodataNames(html: string): string {
  if (!html.includes("itemType") && !html.includes("itemProp")) return html;
  return html.replace(MICRODATA_NAME, (_, space: string, name: string) => space + name.toLowerCase());
}

/** JSON-LD types of a thread's opening post. */
const THREAD_TYPE = /^(discussionforumposting|socialmediaposting|question)$/i;
/** The page's own Markdown gives way to the JSON-LD posts when it holds less than this share of their text (the posts were rendered by script). */
export const LD_POSTS_SHARE = 0.5;

const asList = (v: unknown): LdNode[] =>
  (Array.isArray(v) ? v : v ? [v] : []).filter((x): x is LdNode => !!x && typeof x === "object");
const plain = (v: unknown) =>
  typeof v === "string"
    ? v
        .replace(/<\/(p|div|li|blockquote|h\d)>|<br\s*\/?>/gi, "\n\n")
        .replace(/<[^>]+>/g, "")
        .replace(/&nbsp;/g, " ")
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#0?39;/g, "'")
        .replace(/[ \t]+/g, " ")
        .replace(/\s*\n\s*\n\s*/g, "\n\n")
        .trim()
    : "";
const authorOf = (n: LdNode) => {
  const a = asList(n.author)[0] ?? (typeof n.author === "string" ? { name: n.author } : null);
  return typeof a?.name === "string" ? a.name.trim() : "";
};

/** One post as Markdown: its author and date on a line, then its text. */
function postMarkdown(n: LdNode): string {
  const text = plain(n.text ?? n.articleBody);
  if (!text) return "";
  const date =
    typeof n.datePublished === "string"
      ? n.datePublished
      : typeof n.dateCreated === "string"
        ? n.dateCreated
        : "";
  const line = [authorOf(n), date].filter(Boolean).join(" · ");
  return line ? `${line}\n\n${text}` : text;
}

/** The thread a page states in JSON-LD (opening post, then its comments and answers) as Markdown, or "" when it states no post text. */
export function ldThreadMarkdown(ld: LdNode[]): string {
  const nodes = [...ld, ...ld.flatMap((n) => asList(n.mainEntity))];
  const op = nodes.find((n) => ldIs(n, THREAD_TYPE) && (n.text || n.articleBody));
  if (!op) return "";
  const replies = [...asList(op.acceptedAnswer), ...asList(op.suggestedAnswer), ...asList(op.comment)];
  return [postMarkdown(op), ...replies.map(postMarkdown)].filter(Boolean).join("\n\n");
}

/** The page's Markdown, or the thread its JSON-LD states when the page shows under LD_POSTS_SHARE of that text. */
export function withLdThread(markdown: string, ld: LdNode[]): string {
  const thread = ldThreadMarkdown(ld);
  return markdown.length < thread.length * LD_POSTS_SHARE ? thread : markdown;
}
