import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Scalar's API reference as one browser script, served by the service itself: an identity provider
 * behind a firewall often cannot reach a CDN, and a page that loads code from elsewhere would hand
 * that host the tokens typed into "try it".
 */
const BUNDLE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

/**
 * The bundle's bytes (3.5 MB) and an ETag naming its content. Served uncompressed: Next 16 drops a
 * route handler's Content-Encoding header (next/dist/server/send-response.js, FORBIDDEN_HEADERS)
 * while passing its bytes, so a precompressed body would reach the browser undecodable; compressing
 * it is the TLS-terminating proxy's job. The versioned URL lets a browser fetch it once per upgrade.
 */
export type TDocsBundle = { etag: string; body: Uint8Array<ArrayBuffer> };

const KEY = Symbol.for("idp.docs-bundle");

/** The bundle, read on first use and kept with the process's other singletons; a failed read is retried. */
export function docsBundle(): Promise<TDocsBundle> {
  const holder = globalThis as { [KEY]?: Promise<TDocsBundle> };
  return (holder[KEY] ??= readFile(BUNDLE).then(
    (raw) => ({ etag: createHash("sha256").update(raw).digest("base64url").slice(0, 16), body: new Uint8Array(raw) }),
    (e: unknown) => {
      holder[KEY] = undefined;
      throw e;
    },
  ));
}
