// The internal headers by which the production server (server/serve/tls.mjs, plain JavaScript
// outside Next's bundles) tells the request layer (tls-identity.ts) who is on the other end of the
// connection: written over any copy a client sent, signed or believed only in that server's process.

/** The verified TLS client certificate, signed by the server. */
export const TLS_IDENTITY_HEADER = "x-idp-tls-client";

/** The TCP peer's address. */
export const PEER_HEADER = "x-idp-peer";
