/**
 * Template bindings a page printed unrendered: a client-side framework fills `{{ errors[7].message }}`
 * or a CMS shortcode `{{hire-banner="/banners/hire"}}` in at run time, and a page read without its
 * scripts shows the binding itself. A line that is nothing but a binding is no one's text.
 */
import { isCodeFence } from "./markdown";

/** A line holding only a `{{ ... }}` binding (bold or italic marks around it at most). */
const BINDING_LINE = /^[ \t]*[*_]*\{\{[^{}\n]*\}\}[*_]*[ \t]*$/;

/** The Markdown without lines that are only an unrendered template binding, code blocks left as they are. */
export function dropTemplateBindings(markdown: string): string {
  if (!markdown.includes("{{")) return markdown;
  let inCode = false;
  const kept: string[] = [];
  for (const line of markdown.split("\n")) {
    // Bindings in code are the code's.
    if (isCodeFence(line)) inCode = !inCode;
    if (!inCode && BINDING_LINE.test(line)) continue;
    kept.push(line);
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n");
}
