import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TConfig } from "../config/config.ts";

/**
 * IDP_SECRET_KEY, or in the embedded mode a key generated once and kept (0600) in the data dir, so
 * one command starts a working server and a restart can still decrypt what it stored.
 */
export function resolveSecretKey(config: TConfig): string {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, "secret.key");
  try {
    return readFileSync(file, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, key + "\n", { mode: 0o600, flag: "wx" });
    return key;
  } catch (e) {
    // Another process created it between our read and write: use theirs.
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw e;
  }
}
