import type { TAuthSpec } from "../http/auth-spec.ts";
import type { TOperation } from "../http/define-route.ts";
import { operations } from "./catalog.ts";
import { docsBundleRoute, docsRoute } from "./docs.routes.ts";
import { openApiRoute } from "./openapi.routes.ts";

/** Where the rendered overview lives; `npm run docs:reference` writes it, a unit test compares. */
export const API_REFERENCE_FILE = "docs/reference/api.md";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
const scopes = (list: readonly string[] | undefined) => (list?.length ? list.map((s) => `\`${s}\``).join(" or ") : "—");

/** Who may call: the auth spec as a reader would say it. */
function whoMayCall(auth: TAuthSpec): string {
  if (auth.kind === "none") return "no token";
  if (auth.kind === "basic") return `client (HTTP Basic${auth.scopes ? `, ${scopes(auth.scopes)}` : ""})`;
  const modes = [auth.user?.length ? `user token: ${scopes(auth.user)}` : "", auth.system?.length ? `client token: ${scopes(auth.system)}` : ""].filter(Boolean);
  return `Bearer; ${modes.join("; ")}`;
}

function row(op: TOperation): string {
  const name = `\`${op.method} ${op.path}\``;
  return `| ${name}${op.deprecated ? " (deprecated)" : ""} | ${cell(op.summary)} | ${cell(whoMayCall(op.auth))} |`;
}

/** The readable overview of the API: every operation of the catalog by tag, with who may call it. */
export function renderApiReference(): string {
  const all = operations([openApiRoute, docsRoute, docsBundleRoute]);
  const tags = [...new Set(all.map((op) => op.tags[0] ?? "Other"))];
  const sections = tags.flatMap((tag) => ["", `## ${tag}`, "", "| operation | what it does | who may call |", "|---|---|---|", ...all.filter((op) => (op.tags[0] ?? "Other") === tag).map(row)]);
  return [
    "# API overview",
    "",
    "<!-- Generated from the operation catalog (server/api/catalog.ts) by `npm run docs:reference`; a unit test fails when this page is stale. -->",
    "",
    "Every operation the service answers, grouped as the OpenAPI document groups them. Paths are below the",
    "context path (`/idp` by default). The published contract is the OpenAPI 3.1 document the service serves at",
    "`/idp/api/openapi.json` (schemas of every parameter, body and answer, every error code an operation can",
    "answer with), readable at `/idp/api/docs`; this page is its table of contents.",
    "",
    "- **Who may call.** v3 and v4 operations take a Bearer access token from `/oauth/te`: a *client token*",
    "  (client credentials; system mode) or a *user token* (a person's sign-in through an application; user mode,",
    "  where `current` names the token's own account). Any one of the listed scopes is enough. v1 and v2",
    "  operations take the client's REST password over HTTP Basic (or its TLS client certificate). \"No token\"",
    "  means the operation needs none: the token, revocation and introspection endpoints authenticate the client",
    "  themselves, the browser-facing ones (authorization, logout) work with the browser's session, and the",
    "  health probes, discovery and documentation are public.",
    "- **Errors** come in the shape of each family (v3, v2, registration, OAuth); every code is in the",
    "  [error reference](errors.md).",
    "- **Versions.** v1 and v2 operations that have a v3 or v4 successor answer `Deprecation: true`.",
    ...sections,
    "",
  ].join("\n");
}
