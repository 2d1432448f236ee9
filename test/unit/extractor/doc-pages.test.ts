import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";

const prose = (topic: string) =>
  `<p>The ${topic} step reads the configuration file, checks every entry against the schema and reports each problem with its line number, so that a broken file never reaches the running service.</p>`;

const docPage = (main: string) =>
  `<!doctype html><html><head><title>Configuration guide</title></head><body><nav><a href="/">Docs home</a><a href="/api">API</a></nav><main>${main}</main><footer><p>© 2026 Example docs</p></footer></body></html>`;

const markdownOf = (html: string) =>
  toMarkdown(parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body as never);

describe("code blocks", () => {
  it("fences a <pre> whose <code> follows an empty span, with its language", () => {
    expect(
      markdownOf(
        `<pre><span></span><code class="language-python">import os\nprint(os.getcwd())</code></pre>`,
      ),
    ).toBe("```python\nimport os\nprint(os.getcwd())\n```");
  });

  it("keeps the lines of editor markup (one div per line, lines ended by <br>)", () => {
    const lines = `<div class="cm-line">const a = 1;<br></div><div class="cm-line">const b = 2;<br></div>`;
    expect(markdownOf(`<pre><code>${lines}</code></pre>`)).toBe("```\nconst a = 1;\nconst b = 2;\n```");
  });

  it("keeps the lines of highlighter line spans that swallowed the newlines", () => {
    const code = `<span class="code-line">let x = 1;</span><span class="code-line">x += 1;</span>`;
    expect(markdownOf(`<pre><code>${code}</code></pre>`)).toBe("```\nlet x = 1;\nx += 1;\n```");
  });

  it("keeps a comment token of the code, though its class reads like a comments block", () => {
    const code = `<span class="token keyword">let</span> total = 0; <span class="token comment">// running sum of the order lines</span>`;
    const html = docPage(
      `<h1>Configuration guide</h1>${prose("validation")}<pre><code>${code}</code></pre>${prose("loading")}${prose("reporting")}`,
    );
    const { markdown } = extractMainContent(html, "https://docs.example/config");
    expect(markdown).toContain("```\nlet total = 0; // running sum of the order lines\n```");
  });
});
