type TDoc = { info: { title: string; description?: string }; paths?: Record<string, Record<string, TOp>> };
type TOp = {
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  "x-scopes"?: { user: string[]; system: string[] };
  responses?: Record<string, { description?: string }>;
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function operationHtml(path: string, method: string, op: TOp): string {
  const scopes = op["x-scopes"];
  const scopeLine = scopes
    ? `<p class="scopes">Scopes (any one): ${[...scopes.user.map((s) => `${s} <small>user</small>`), ...scopes.system.map((s) => `${s} <small>system</small>`)].join(", ")}</p>`
    : "";
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<li><b>${esc(status)}</b> ${esc(r.description ?? "")}</li>`)
    .join("");
  return `<details id="${esc(method + path)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code> ${esc(op.summary ?? "")}${op.deprecated ? ' <span class="dep">deprecated</span>' : ""}</summary>
${op.description ? `<p>${esc(op.description)}</p>` : ""}${scopeLine}<ul>${responses}</ul></details>`;
}

/**
 * A self-contained reference page rendered from the OpenAPI document. Swagger UI would need its
 * assets from a CDN, which an identity provider behind a firewall often cannot reach.
 */
export function renderDocsPage(doc: TDoc, jsonUrl: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2>${esc(tag)}</h2>${ops.join("\n")}`).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1f2933}
details{border:1px solid #d9e2ec;border-radius:6px;margin:.4rem 0;padding:.4rem .8rem}summary{cursor:pointer}
.m{display:inline-block;min-width:4.2em;font-weight:600}.get{color:#0b7285}.post{color:#2b8a3e}.put{color:#e67700}.delete{color:#c92a2a}.patch{color:#5f3dc4}
.dep{color:#c92a2a;font-size:.8em}.scopes{font-size:.9em}small{color:#627d98}code{font-size:.95em}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description ?? "")}</p><p>Machine-readable: <a href="${esc(jsonUrl)}">openapi.json</a></p>
${sections}</body></html>`;
}
