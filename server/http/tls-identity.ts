import { createHmac, timingSafeEqual } from "node:crypto";
import { PEER_HEADER, TLS_IDENTITY_HEADER } from "./tls-headers.mjs";
import type { THasHeaders } from "./exchange.ts";

/**
 * The client certificate a request came with, as server/serve/tls.mjs verified it: over this
 * server's own TLS (`via: "tls"`) or in a trusted proxy's header (`via: "proxy"`). Its subject CN is
 * what client applications list in `tlsCNs`.
 */
export type TTlsIdentity = { cn: string; fp: string; via: "tls" | "proxy" };

// Written by server/serve/tls.mjs, which runs only in the production server (`npm start`). The
// header alone proves nothing: under `next start` or `next dev` a client could send it, and no key
// exists there, so no header is believed (see tls.mjs for the whole argument).
const IDENTITY_HEADER = TLS_IDENTITY_HEADER;
const STATE = Symbol.for("idp.tls-client-identity");
type TState = { key: Buffer; receives: boolean };

function state(): TState | undefined {
  return (globalThis as { [STATE]?: TState })[STATE];
}

/**
 * The TCP peer of `req` as the production server saw it (server/serve/tls.mjs writes it over any copy
 * for every request); undefined elsewhere (`next dev`, `next start`), where a client could write it.
 */
export function peerAddressOf(req: THasHeaders): string | undefined {
  return state() ? (req.headers.get(PEER_HEADER)?.slice(0, 64) ?? undefined) : undefined;
}

/** Whether this process can receive client certificates at all: discovery lists tls_client_auth only then. */
export function receivesClientCertificates(): boolean {
  return state()?.receives ?? false;
}

/** The verified client certificate of `req`, or undefined (none, or a header this process did not sign). */
export function tlsClientIdentity(req: THasHeaders): TTlsIdentity | undefined {
  const s = state();
  const value = req.headers.get(IDENTITY_HEADER);
  if (!s || !value) return undefined;
  const dot = value.indexOf(".");
  if (dot < 1) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = createHmac("sha256", s.key).update(payload).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const id = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TTlsIdentity;
    return typeof id.cn === "string" && id.cn ? id : undefined;
  } catch {
    return undefined;
  }
}
