import { getConfig } from "../config/config.ts";
import { resolveSecretKey } from "./secret-key.ts";
import { deriveKey } from "./sealing.ts";

const cache = new Map<string, Buffer>();

/** The process's key for one purpose, derived from IDP_SECRET_KEY (or the data dir's key). */
export function keyFor(purpose: "signing-keys" | "otp-seeds" | "credential-cache" | "session" | "outbox" | "confirmation-codes" | "builtin-clients" | "federation-secrets" | "federation-tokens"): Buffer {
  let key = cache.get(purpose);
  if (!key) {
    key = deriveKey(resolveSecretKey(getConfig()), purpose);
    cache.set(purpose, key);
  }
  return key;
}
