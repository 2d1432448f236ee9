/** Renders the OpenAPI document as a plain, readable HTML reference (no external scripts). */

type Json = Record<string, unknown>;

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function schemaBlock(schema: unknown): string {
  if (!schema) return "";
  return `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>`;
}

/** An HTML page listing every operation with its parameters, body and responses. */
export function renderDocs(doc: Json): string {
  const info = (doc.info ?? {}) as Json;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = ((op.parameters ?? []) as Json[])
        .map(
          (p) =>
            `<li><code>${esc(p.name)}</code> (${esc(p.in)})${p.required ? " required" : ""} ${esc((p.schema as Json)?.description ?? p.description ?? "")}</li>`,
        )
        .join("");
      const body = ((op.requestBody as Json)?.content as Record<string, Json> | undefined)?.[
        "application/json"
      ]?.schema;
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
        .map(([status, r]) => `<li><b>${esc(status)}</b> ${esc(r.description)}</li>`)
        .join("");
      ops.push(`<section id="${esc(`${method}-${path}`)}"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>${op.description ? `<p>${esc(op.description)}</p>` : ""}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""}${body ? `<h4>Request body</h4>${schemaBlock(body)}` : ""}
<h4>Responses</h4><ul>${responses}</ul></section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(info.title)} API reference</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c2330}
pre{background:#f4f6fa;padding:.75rem;overflow:auto;font-size:12px}section{border-top:1px solid #dde2ea;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-size:12px;padding:2px 6px;border-radius:4px;background:#e6ecf5}
.post{background:#dff5e4}.delete{background:#fbe1e1}.put,.patch{background:#fff1d6}</style></head><body>
<h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>${esc(info.description)}</p>
<p>Authenticate every request with <code>Authorization: Bearer &lt;key&gt;</code>. Errors always look like
<code>{"error": {"code": "...", "message": "..."}}</code>. Machine-readable document: <a href="/openapi.json">/openapi.json</a>.</p>
${ops.join("\n")}</body></html>`;
}
