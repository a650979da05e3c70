import { z } from "zod";
import { getConfig } from "../config/config.ts";
import { operations } from "./catalog.ts";
import { type TRouteHandler } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { docsBundleRoute, docsRoute } from "./docs.routes.ts";
import { buildOpenApiDocument } from "./openapi.ts";

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

// The document describes itself and the reference page too, so the coverage test holds for them as well.
function document(self: TRouteHandler[]) {
  return (cached ??= buildOpenApiDocument(operations(self), getConfig().issuer));
}

export const openApiRoute: TRouteHandler = defineRoute(
  {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    tags: ["Documentation"],
    auth: { kind: "none" },
    response: { status: 200, description: "OpenAPI document", schema: z.object({ openapi: z.string() }).loose() },
    errors: [],
    cacheControl: "public, max-age=300",
  },
  async () => document([openApiRoute, docsRoute, docsBundleRoute]),
);
