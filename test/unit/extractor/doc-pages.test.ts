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

describe("documentation pages", () => {
  it("keeps a section whose id is its heading's slug, though the slug says 'comments'", () => {
    const sections = [
      `<section id="install-the-tool"><h2>Install the tool</h2>${prose("install")}</section>`,
      `<section id="respond-to-review-comments"><h2>Respond to review comments</h2><p>Answer each reviewer by mail, say which changes the next version makes, and thank them for the time the review took.</p></section>`,
      `<section id="send-the-patch"><h2>Send the patch</h2>${prose("sending")}</section>`,
    ].join("");
    const { markdown } = extractMainContent(
      docPage(`<h1>Configuration guide</h1>${sections}`),
      "https://docs.example/config",
    );
    expect(markdown).toContain(
      "## Respond to review comments\n\nAnswer each reviewer by mail, say which changes the next version makes, and thank them for the time the review took.",
    );
  });

  it("keeps headings and code boxes styled with scroll-margin and overflow utilities", () => {
    const box = `<div class="group scroll-mt-2 overflow-x-hidden"><div class="relative"><pre><code>docker compose up --build</code></pre></div></div>`;
    const main = `<h1>Configuration guide</h1>${prose("validation")}<h2 class="scroll-mt-20 font-extrabold">Start the stack</h2>${prose("starting")}${box}${prose("stopping")}`;
    const { markdown } = extractMainContent(docPage(main), "https://docs.example/config");
    expect(markdown).toContain("## Start the stack");
    expect(markdown).toContain("```\ndocker compose up --build\n```");
  });

  it("keeps a card's heading that a page builder calls its header", () => {
    const blurb = (title: string, topic: string) =>
      `<div class="et_pb_blurb"><div class="et_pb_blurb_container"><h4 class="et_pb_module_header"><a href="/services/${topic}">${title}</a></h4><div class="et_pb_blurb_description">${prose(topic)}</div></div></div>`;
    const main = `<h1>Our services</h1>${prose("intake")}${blurb("Custom model development", "modelling")}${blurb("Model integration", "integration")}${prose("support")}`;
    const { markdown } = extractMainContent(docPage(main), "https://agency.example/services");
    expect(markdown).toContain("Custom model development");
    expect(markdown).toContain("Model integration");
  });

  it("reads every tab of a tabbed code sample, not only the one shown", () => {
    const tabs = `<div class="tabs"><div role="tablist"><a role="tab">Linux</a><a role="tab">macOS</a></div><section role="tabpanel"><p>Install the package from the distribution's repository:</p><pre><code>sudo apt-get install exampletool</code></pre></section><section role="tabpanel" hidden><p>Install the package with Homebrew:</p><pre><code>brew install exampletool</code></pre></section></div>`;
    const main = `<h1>Configuration guide</h1>${prose("validation")}<h2>Install</h2>${tabs}${prose("loading")}${prose("reporting")}`;
    const { markdown } = extractMainContent(docPage(main), "https://docs.example/config");
    expect(markdown).toContain("```\nsudo apt-get install exampletool\n```");
    expect(markdown).toContain("Install the package with Homebrew:\n\n```\nbrew install exampletool\n```");
  });
});
