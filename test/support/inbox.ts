// What the server under test delivered: the API suite's global setup runs a real SMTP server and a
// real SMS webhook listener on loopback and publishes what they received at `inboxUrl`, so tests
// read codes exactly as a person would, from the message that arrived.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import type { TSmtpPeer, TWebhookPeer } from "./messaging-peers.ts";

export type TDelivered = { channel: "email" | "sms"; to: string; subject?: string; text: string };

/**
 * Serves every delivered message as JSON, oldest first. `PUT /sms-status/<code>` makes the SMS
 * webhook answer with that status from then on, so a test can take the transport down and up.
 */
export async function startInbox(smtp: TSmtpPeer, webhook: TWebhookPeer): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const status = /^\/sms-status\/(\d{3})$/.exec(req.url ?? "");
    if (req.method === "PUT" && status) {
      webhook.status = Number(status[1]);
      res.writeHead(204).end();
      return;
    }
    const mails: TDelivered[] = smtp.received.flatMap((m) => m.to.map((to) => ({ channel: "email" as const, to, subject: m.subject, text: m.text })));
    // Only what the webhook accepted arrived; a call it answered with an error did not.
    const sms: TDelivered[] = webhook.calls
      .filter((c) => c.accepted)
      .map((c) => ({ channel: "sms" as const, to: String(c.body.to), text: String(c.body.text) }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([...mails, ...sms]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function delivered(to: string): Promise<TDelivered[]> {
  const all = (await (await fetch(inject("inboxUrl"))).json()) as TDelivered[];
  return all.filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** Waits for the `n`-th message to `to` (1-based; default: one more than `after` already there). */
export async function waitForMessage(to: string, after = 0, timeoutMs = 10_000): Promise<TDelivered> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await delivered(to);
    if (got.length > after) return got[after]!;
    if (Date.now() > deadline) throw new Error(`no message to ${to} within ${timeoutMs} ms (have ${got.length})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The six-digit code of a delivered message. */
export function codeOf(m: TDelivered): string {
  const found = /\b(\d{6})\b/.exec(m.text);
  if (!found) throw new Error(`no code in the message to ${m.to}`);
  return found[1]!;
}

/** Runs `action` and returns what it answered and the code of the message it sent to `to`. */
export async function codeAfter<T>(to: string, action: () => Promise<T>): Promise<{ result: T; code: string }> {
  const before = (await delivered(to)).length;
  const result = await action();
  return { result, code: codeOf(await waitForMessage(to, before)) };
}

/** Makes the SMS webhook answer `status` (500: the transport is down; 200: it is back). */
export async function setSmsStatus(status: number): Promise<void> {
  await fetch(`${inject("inboxUrl")}sms-status/${status}`, { method: "PUT" });
}
