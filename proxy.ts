// Next's router decodes a dynamic route's path parameters while it resolves the route, before any
// route handler runs, and answers a percent escape that is not UTF-8 (`…/users/x%zz`, `…/x%c0%af`)
// with its own plain-text 500 (Next 16.4: shared/lib/router/utils/route-matcher.js throws a
// DecodeError; server/lib/router-server.js then tries a /400 page this app does not have and ends the
// response with "Internal Server Error"). The proxy is the earliest hook of ours: resolve-routes runs
// it after next.config headers and redirects and before the filesystem and dynamic routes, and
// matches it against the raw path. test/api/malformed-requests.test.ts checks it on the production build.
import type { NextRequest } from "next/server";
import { refuseMalformedUrl } from "@/server/http/malformed-url";

export function proxy(request: NextRequest): Response | undefined {
  // nextUrl.pathname is the raw (still encoded) path without the context path.
  return refuseMalformedUrl(request, request.nextUrl.pathname);
}

// Only a path with a "%" can hold a malformed escape, so every other request skips the proxy and
// pays nothing for it. Next prefixes the context path (basePath) and tests the raw path.
export const config = { matcher: "/:path(.*%.*)" };
