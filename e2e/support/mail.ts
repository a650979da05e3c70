import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { parseMail } from "../../test/support/messaging-peers.ts";

// What the e2e run's SMTP sink (scripts/mail-sink.mjs) received: one JSON file per message.
export type TMail = { to: string[]; subject: string; text: string };

function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR: is required (run `npm run test:e2e`)");
  return dir;
}

/** Every message to `to` so far, oldest first. */
export function mailTo(to: string): TMail[] {
  const dir = mailDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as { to: string[]; raw: string })
    .filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()))
    .map((m) => ({ to: m.to, ...parseMail(m.raw) }));
}

/** The six-digit code of the `n`-th message to `to` (1-based), once it has arrived. */
export async function codeFromMail(to: string, n = 1): Promise<string> {
  await expect.poll(() => mailTo(to).length, { message: `message ${n} to ${to}` }).toBeGreaterThanOrEqual(n);
  const text = mailTo(to)[n - 1]!.text;
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, `a six-digit code in: ${text}`).toBeDefined();
  return code!;
}
