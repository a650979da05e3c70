// What the production server (server/serve/, plain JavaScript outside Next's bundles) hands the
// handlers (bundled TypeScript) beside the Request: the names both sides must agree on, in one place.

/** Largest request body any operation accepts; the fast path reads bodies up to it whole. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The property of a Request on which the fast path leaves a body it read whole (parse.ts reads it). */
export const RAW_BODY = Symbol.for("idp.raw-body");

/** The header carrying the verified TLS client certificate, signed by the server (tls.mjs → tls-identity.ts). */
export const TLS_IDENTITY_HEADER = "x-idp-tls-client";

/**
 * The property of a Response (server/http/string-response.ts) that gives its body as the string the
 * handler made, while nothing has turned it into a stream: the fast path writes it with one
 * res.end(). A string, null for no body, undefined when the body must be read as a stream.
 */
export const STRING_BODY = Symbol.for("idp.string-body");

/**
 * The property of a route's context on which the fast path leaves the path parameters as a plain
 * object, beside the `params` Promise that Next's route contract requires: defineRoute reads them
 * without awaiting (an await per request, in a route whose whole work costs a few tens of µs).
 */
export const PATH_PARAMS = Symbol.for("idp.path-params");

/**
 * The property of a Request that gives its path and query, `{ pathname, search }` as a URL parsed
 * from req.url would, when the fast path knows them without parsing (a URL of characters that
 * parsing leaves as they are); undefined otherwise. defineRoute reads it instead of parsing the URL.
 */
export const REQUEST_TARGET = Symbol.for("idp.request-target");
