import { MAX_BODY_BYTES } from "./parse.ts";

/*
 * Checks for the routes Next serves to the console's and portal's own pages (tRPC, next-auth), which
 * do not go through the request core: its body limit and, for calls that act with the browser's
 * cookies, that they come from the service's own pages.
 */

/**
 * A body over the REST API's limit, or one whose size is not declared. Browsers declare the size of
 * every body they send, and Node reads no further than the declared length, so checking the header
 * is a real limit.
 */
export function isOversizedBody(req: Request, limit = MAX_BODY_BYTES): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  const length = req.headers.get("content-length");
  if (length === null) return req.headers.has("transfer-encoding");
  return !/^\d{1,9}$/.test(length) || Number(length) > limit;
}

/**
 * A call made by another site's page with this browser's cookies. Browsers say where a call comes
 * from in Sec-Fetch-Site (every current one) or, failing that, Origin; a call that sends neither is
 * not a browser's, and cookies it carries were not lent to it by one.
 */
export function isCrossSite(req: Request, ownOrigin: string): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const origin = req.headers.get("origin");
  return origin !== null && origin !== ownOrigin;
}
