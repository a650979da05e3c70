// Headers every answer of the service carries, and the policy of the console's and portal's pages.
// Plain JavaScript: next.config.mjs (the headers of `next dev` and of what Next serves) and the
// production server (server/serve/server.mjs, which also covers the fast path) read the same list.

/**
 * Never framed (clickjacking), never sniffed into another type: the same for every answer. (Pages
 * also say what referrer they send: the sign-in pages none, the console and portal their own
 * origin only; an answer that is no document has no use for it.)
 */
export const SECURITY_HEADERS = Object.freeze({
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
});

/**
 * Strict-Transport-Security when the public address is https, as config.ts derives it (the public
 * URL, else https when the server speaks TLS itself): a browser then never tries plain http again.
 * Undefined over plain http, where the header would mean nothing and could only be stale later.
 */
export function hstsOf(env = process.env) {
  const publicUrl = env.IDP_PUBLIC_URL || (env.IDP_TLS_CERT ? "https:" : "http:");
  return publicUrl.startsWith("https:") ? "max-age=31536000" : undefined;
}

/**
 * The console's and portal's Content-Security-Policy: scripts only with this answer's nonce (Next
 * puts it on its own scripts when it finds the policy among the request's headers) and what they
 * load ('strict-dynamic'); style attributes of the UI kit are inline, hence 'unsafe-inline' for
 * styles only. `next dev` needs eval and its reload socket.
 */
export function pagePolicy(nonce, dev = false) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
