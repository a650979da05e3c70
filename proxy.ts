// The proxy is the earliest hook of ours in Next: resolve-routes runs it after next.config headers and
// redirects and before the filesystem and dynamic routes, and matches it against the raw path.
// - Next's router decodes a dynamic route's path parameters while it resolves the route, before any
//   route handler runs, and answers a percent escape that is not UTF-8 (`…/users/x%zz`, `…/x%c0%af`)
//   with its own plain-text 500 (Next 16.4: shared/lib/router/utils/route-matcher.js throws a
//   DecodeError; server/lib/router-server.js then tries a /400 page this app does not have). Such a
//   path is refused here (test/api/malformed-requests.test.ts checks it on the production build).
// - The console's and portal's pages get a Content-Security-Policy with a fresh nonce: Next reads the
//   policy from the request's headers and puts the nonce on the scripts it renders.
import { NextResponse, type NextRequest } from "next/server";
import { refuseMalformedUrl } from "@/server/http/malformed-url";
import { responseOf } from "@/server/http/next-transport";
import { pagePolicy } from "@/server/http/security-headers.mjs";

const PAGE_TREES = /^\/(console|account)(\/|$)/;

export function proxy(request: NextRequest): Response | undefined {
  // nextUrl.pathname is the raw (still encoded) path without the context path.
  const path = request.nextUrl.pathname;
  const refused = refuseMalformedUrl(request, path);
  if (refused) return responseOf(refused);
  if (!PAGE_TREES.test(path)) return undefined;
  const policy = pagePolicy(Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64"), process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("referrer-policy", "same-origin");
  return response;
}

// Every other request skips the proxy and pays nothing for it: only a path with a "%" can hold a
// malformed escape, and the page trees need their policy. Next prefixes the context path (basePath).
export const config = { matcher: ["/:path(.*%.*)", "/console/:path*", "/account/:path*"] };
