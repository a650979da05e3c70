import { z } from "zod";
import { getConfig } from "../config/config.ts";
import { type TRouteHandler } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { docsBundle } from "./docs-assets.ts";
import { docsPageCsp, renderDocsPage } from "./docs-page.ts";
import { Answer } from "../http/exchange.ts";

const BUNDLE_PATH = "/api/docs/scalar.js";
// The bundle's URL names its content, so a browser may keep it for a year; an upgrade changes the name.
const IMMUTABLE = "public, max-age=31536000, immutable";

export const docsRoute: TRouteHandler = defineRoute(
  {
    method: "GET",
    path: "/api/docs",
    summary: "Interactive API reference",
    description: "Scalar's API reference over /api/openapi.json, served from this service (no CDN); try it can fetch a system token with the client-credentials flow.",
    tags: ["Documentation"],
    auth: { kind: "none" },
    response: { status: 200, description: "HTML page" },
    errors: [],
  },
  async () => {
    const { contextPath, issuer } = getConfig();
    const { etag } = await docsBundle();
    const page = {
      title: "Identity Service API",
      scriptUrl: `${contextPath}${BUNDLE_PATH}?v=${etag}`,
      documentUrl: `${contextPath}/api/openapi.json`,
      issuerOrigin: new URL(issuer).origin,
    };
    const headers = {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=300",
      "content-security-policy": docsPageCsp(page),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    };
    return new Answer(200, headers, renderDocsPage(page));
  },
);

export const docsBundleRoute: TRouteHandler = defineRoute(
  {
    method: "GET",
    path: BUNDLE_PATH,
    summary: "Script of the API reference page",
    description: "Scalar's standalone bundle as installed with the service. With `v` equal to its ETag (as the page links it) it may be cached for a year.",
    tags: ["Documentation"],
    auth: { kind: "none" },
    query: z.object({ v: z.string().max(64).optional() }),
    response: { status: 200, description: "JavaScript" },
    otherResponses: [{ status: 304, description: "Not modified (If-None-Match matched the ETag)" }],
    errors: [],
  },
  async ({ request, query }) => {
    const bundle = await docsBundle();
    const etag = `"${bundle.etag}"`;
    const headers = {
      etag,
      "cache-control": query.v === bundle.etag ? IMMUTABLE : "public, max-age=300",
      "x-content-type-options": "nosniff",
    };
    const known = (request.headers.get("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
    if (known.includes(etag) || known.includes("*")) return new Answer(304, headers);
    return new Answer(200, { ...headers, "content-type": "text/javascript; charset=utf-8" }, bundle.body);
  },
);
