import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { TConfig } from "../config/config.ts";

/** The key that seals (and derives the HMAC keys), then the keys that only open what they sealed. */
export type TSecretKeys = { current: string; previous: string[] };

export function secretKeyFile(config: TConfig): string {
  return path.join(config.dataDir, "secret.key");
}

/** The lines of the data dir's key file: the current key first, after a rotation the old ones. */
function readKeyFile(file: string): string[] | undefined {
  try {
    return readFileSync(file, "utf8").split("\n").map((l) => l.trim()).filter(Boolean);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    return undefined;
  }
}

/**
 * IDP_SECRET_KEY, or in the embedded mode a key generated once and kept (0600) in the data dir, so
 * one command starts a working server and a restart can still decrypt what it stored. Previous keys
 * come from IDP_SECRET_KEY_PREVIOUS and, in the embedded mode, the key file's further lines.
 */
export function resolveSecretKeys(config: TConfig): TSecretKeys {
  const file = secretKeyFile(config);
  const lines = config.secretKey ? [] : (readKeyFile(file) ?? createKeyFile(config.dataDir, file));
  const current = config.secretKey ?? lines[0]!;
  const previous = [...config.previousSecretKeys, ...lines.slice(1)].filter((k) => k !== current);
  return { current, previous: [...new Set(previous)] };
}

function createKeyFile(dataDir: string, file: string): string[] {
  mkdirSync(dataDir, { recursive: true });
  const key = newSecretKey();
  try {
    writeFileSync(file, key + "\n", { mode: 0o600, flag: "wx" });
    return [key];
  } catch (e) {
    // Another process created it between our read and write: use theirs.
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(file)!;
    throw e;
  }
}

export function newSecretKey(): string {
  return randomBytes(32).toString("base64url");
}

/** The data dir's key file as it is: the current key first, then the previous ones. */
export function keyFileLines(config: TConfig): string[] {
  return readKeyFile(secretKeyFile(config)) ?? [];
}

/**
 * Replaces the data dir's key file at once and durably: a crash or a power loss leaves the old file
 * or the new one, never half of one, and never a database sealed under a key the file lost.
 */
export function writeKeyFile(config: TConfig, keys: string[]): void {
  const file = secretKeyFile(config);
  const next = `${file}.next`;
  const fd = openSync(next, "w", 0o600);
  try {
    writeSync(fd, keys.join("\n") + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(next, file);
  const dir = openSync(path.dirname(file), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
