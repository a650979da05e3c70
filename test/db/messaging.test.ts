import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, parseConfig } from "../../server/config/config.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { inTransaction } from "../../server/db/index.ts";
import { BACKOFF_MS, drainOutbox, NO_TRANSPORT, type TDeliveryDeps } from "../../server/messaging/delivery.service.ts";
import { kickDelivery, startDeliveryWorker, stopDeliveryWorker } from "../../server/messaging/delivery-worker.ts";
import { enqueueMessage, resendMessage, type TEnqueueMessage } from "../../server/messaging/outbox.service.ts";
import { transportsFromConfig, type TTransports } from "../../server/messaging/transports.ts";
import { closedPort, startSmtpPeer, startWebhookPeer, type TSmtpPeer, type TWebhookPeer } from "../support/messaging-peers.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";
import { flushLog } from "../../server/log/logger.ts";

const AUTH = { user: "mailer", pass: "p@ss:word/1" };
const TOKEN = "webhook-token-0123456789";
const CODE = "483920";

const emailCode = (to = "alice@example.com"): TEnqueueMessage<"confirm_email_code"> => ({
  channel: "email",
  to,
  template: "confirm_email_code",
  params: { code: CODE, minutes: 15 },
  userId: "user-1",
  purpose: "contact.confirm_email",
});
const smsCode = (to = "+79161234567", locale?: string): TEnqueueMessage<"confirm_phone_code"> => ({
  channel: "sms",
  to,
  template: "confirm_phone_code",
  locale,
  params: { code: CODE, minutes: 5 },
  purpose: "contact.confirm_phone",
});

const enqueue = (input: TEnqueueMessage) => inTransaction((tx) => enqueueMessage(tx, input));

/** A clock the test moves by hand, starting at the real time: make it after enqueueing (rows are due at enqueue time). */
function manualClock() {
  let now = Date.now();
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe.each(DB_KINDS)("outbox delivery on %s", (kind) => {
  let t: TTestDatabase;
  let smtp: TSmtpPeer;
  let hook: TWebhookPeer;

  beforeEach(async () => {
    t = await installTestDatabase(kind);
    smtp = await startSmtpPeer(AUTH);
    hook = await startWebhookPeer();
  });
  afterEach(async () => {
    await stopDeliveryWorker();
    await Promise.all([smtp.close(), hook.close()]);
    await t.close();
  });

  // Transports as configuration builds them, pointed at the loopback peers.
  const transports = (smtpUrl = smtp.url): TTransports =>
    transportsFromConfig(
      parseConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Identity <idp@example.test>", SMS_WEBHOOK_URL: hook.url, SMS_WEBHOOK_TOKEN: TOKEN }).messaging,
    );
  const row = (id: string) => t.db.prisma.outboxMessage.findUniqueOrThrow({ where: { id } });

  it("delivers an e-mail to a real SMTP server once the transaction commits; the body is sealed at rest", async () => {
    const worker = await startDeliveryWorker({ transports: transports() });
    const { id } = await enqueue(emailCode());
    kickDelivery();
    await worker.idle();

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(["alice@example.com"]);
    expect(mail.from).toBe("idp@example.test");
    expect(mail.subject).toBe("Код подтверждения адреса электронной почты");
    expect(mail.text).toContain(CODE);
    expect(mail.text).toContain("15 минут");
    expect(mail.headers["x-outbox-id"]).toBe(id);

    const stored = await row(id);
    expect(stored).toMatchObject({ status: "sent", attempts: 1, lastError: null, nextAttemptAt: null, locale: "ru", userId: "user-1" });
    expect(stored.sentAt).toBeInstanceOf(Date);
    expect(stored.bodySealed).toMatch(/^v2\./);
    expect(JSON.stringify(stored)).not.toContain(CODE);
  });

  it("writes nothing when the transaction that enqueued rolls back", async () => {
    const worker = await startDeliveryWorker({ transports: transports() });
    const failed = inTransaction(async (tx) => {
      await enqueueMessage(tx, emailCode());
      throw new Error("the change was refused");
    });
    await expect(failed).rejects.toThrow("the change was refused");
    kickDelivery();
    await worker.idle();
    expect(await t.db.prisma.outboxMessage.count()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("posts an SMS to the webhook as JSON with the bearer token", async () => {
    const worker = await startDeliveryWorker({ transports: transports() });
    const { id } = await enqueue(smsCode("+79161234567", "en-US"));
    kickDelivery();
    await worker.idle();

    expect(hook.calls).toHaveLength(1);
    const call = hook.calls[0]!;
    expect(call.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call.headers["content-type"]).toBe("application/json");
    expect(call.body).toEqual({ id, to: "+79161234567", text: expect.stringContaining(CODE), channel: "sms" });
    expect(call.body.text).toBe(`Phone confirmation code: ${CODE}. Valid for 5 minutes. Do not share this code.`);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, locale: "en", subject: null });
  });

  it("keeps a message pending while the SMTP server is down and sends it on the retry after it is back", async () => {
    const port = await closedPort();
    const { id } = await enqueue(emailCode());
    const { clock, advance } = manualClock();
    const deps: TDeliveryDeps = { transports: transports(`smtp://${AUTH.user}:x@127.0.0.1:${port}`), clock };

    expect(await drainOutbox(deps)).toEqual({ sent: 0, failed: 0, pending: 1 });
    const first = await row(id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(first.lastError).toMatch(/ECONNREFUSED/);
    expect(first.nextAttemptAt!.getTime()).toBe(clock().getTime() + BACKOFF_MS[0]!);
    // Not due yet: a drain before the backoff has passed leaves it alone.
    expect(await drainOutbox(deps)).toEqual({ sent: 0, failed: 0, pending: 0 });

    const back = await startSmtpPeer({ user: AUTH.user, pass: "x" }, port);
    try {
      advance(BACKOFF_MS[0]!);
      expect(await drainOutbox(deps)).toEqual({ sent: 1, failed: 0, pending: 0 });
      expect(back.received.map((m) => m.headers["x-outbox-id"])).toEqual([id]);
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    } finally {
      await back.close();
    }
  });

  it("backs off 10 s, 1 min, 5 min, 30 min, fails after the 5th attempt, and a resend re-queues it", async () => {
    hook.status = 500;
    const { id } = await enqueue(smsCode());
    const { clock, advance } = manualClock();
    const deps: TDeliveryDeps = { transports: transports(), clock };

    for (const wait of BACKOFF_MS) {
      await drainOutbox(deps);
      const r = await row(id);
      expect(r).toMatchObject({ status: "pending", lastError: "webhook answered HTTP 500 Internal Server Error" });
      expect(r.nextAttemptAt!.getTime() - clock().getTime()).toBe(wait);
      advance(wait);
    }
    expect(await drainOutbox(deps)).toEqual({ sent: 0, failed: 1, pending: 0 });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 5, nextAttemptAt: null });
    advance(24 * 3600_000);
    expect(await drainOutbox(deps)).toEqual({ sent: 0, failed: 0, pending: 0 });
    expect(hook.calls).toHaveLength(5);

    hook.status = 200;
    expect(await resendMessage(id, { subject: "admin" })).toMatchObject({ status: "pending", attempts: 0, lastError: null });
    expect(await drainOutbox(deps)).toEqual({ sent: 1, failed: 0, pending: 0 });
    expect(hook.calls).toHaveLength(6);
  });

  it("sends what a previous run left pending when the worker starts (boot)", async () => {
    const ids = [(await enqueue(emailCode("a@example.com"))).id, (await enqueue(emailCode("b@example.com"))).id, (await enqueue(smsCode())).id];
    const worker = await startDeliveryWorker({ transports: transports() });
    await worker.idle();
    const delivered = [...smtp.received.map((m) => m.headers["x-outbox-id"]), ...hook.calls.map((c) => c.body.id)];
    expect(delivered.sort()).toEqual([...ids].sort());
    expect(await t.db.prisma.outboxMessage.count({ where: { status: "sent" } })).toBe(3);
  });

  it("without a transport keeps messages pending, does not retry them, and sends them once one is configured", async () => {
    // The embedded default: no SMTP_URL, no SMS_WEBHOOK_URL.
    const worker = await startDeliveryWorker();
    const { id } = await enqueue(emailCode());
    kickDelivery();
    await worker.idle();
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 0, lastError: NO_TRANSPORT, nextAttemptAt: null });

    const { clock, advance } = manualClock();
    advance(3600_000);
    expect(await drainOutbox({ transports: {}, clock })).toEqual({ sent: 0, failed: 0, pending: 0 });

    await (await startDeliveryWorker({ transports: transports() })).idle();
    expect(smtp.received.map((m) => m.headers["x-outbox-id"])).toEqual([id]);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
  });

  it("sends each message exactly once when two workers drain at the same time", async () => {
    const ids = await inTransaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 30; i++) {
        const input = i % 2 ? emailCode(`user${i}@example.com`) : smsCode(`+7916000${String(i).padStart(4, "0")}`);
        out.push((await enqueueMessage(tx, input)).id);
      }
      return out;
    });
    const deps: TDeliveryDeps = { transports: transports(), clock: () => new Date() };
    const [a, b] = await Promise.all([drainOutbox(deps), drainOutbox(deps)]);
    expect(a.sent + b.sent).toBe(30);
    const delivered = [...smtp.received.map((m) => m.headers["x-outbox-id"]), ...hook.calls.map((c) => c.body.id as string)];
    expect(delivered.sort()).toEqual([...ids].sort());
    expect(await t.db.prisma.outboxMessage.count({ where: { status: "sent", attempts: 1 } })).toBe(30);
  });

  it("logs message id, channel and status, never the text, the code or the whole recipient", async () => {
    const lines: string[] = [];
    const [out, err] = [process.stdout.write, process.stderr.write];
    const capture = ((chunk: string | Uint8Array) => (lines.push(String(chunk)), true)) as typeof process.stdout.write;
    const level = process.env.IDP_LOG_LEVEL;
    process.env.IDP_LOG_LEVEL = "debug";
    process.stdout.write = capture;
    process.stderr.write = capture;
    try {
      hook.status = 500;
      const deps: TDeliveryDeps = { transports: transports(), clock: () => new Date() };
      const sent = await enqueue(emailCode("alice.smith@example.com"));
      const failed = await enqueue(smsCode("+79161234567"));
      await drainOutbox(deps);
      flushLog();
      const log = lines.join("");
      expect(log).toContain(sent.id);
      expect(log).toContain(failed.id);
      expect(log).toContain('"status":"sent"');
      expect(log).toContain('"channel":"sms"');
      expect(log).toContain("a***@example.com");
      for (const secret of [CODE, "alice.smith@example.com", "+79161234567", TOKEN, AUTH.pass]) expect(log).not.toContain(secret);
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
      process.env.IDP_LOG_LEVEL = level;
    }
  });

  it("keeps messages IDP_OUTBOX_RETENTION_DAYS after they were written, then the maintenance deletes them, sent or pending", async () => {
    const worker = await startDeliveryWorker({ transports: transports() });
    const sent = await enqueue(emailCode());
    kickDelivery();
    await worker.idle();
    expect((await row(sent.id)).status).toBe("sent");
    await stopDeliveryWorker();
    const pending = await enqueue(smsCode());
    const day = 24 * 60 * 60 * 1000;
    expect(getConfig().outboxRetentionDays).toBe(30);
    expect((await runMaintenance(new Date(Date.now() + 29 * day))).outboxMessages).toBe(0);
    expect(await t.db.prisma.outboxMessage.count({ where: { id: { in: [sent.id, pending.id] } } })).toBe(2);
    expect((await runMaintenance(new Date(Date.now() + 31 * day))).outboxMessages).toBe(2);
    expect(await t.db.prisma.outboxMessage.count()).toBe(0);
  });
});
