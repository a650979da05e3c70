import type { Session } from "next-auth";
import { TRPCError } from "@trpc/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config/config.ts";
import { inTransaction } from "../../server/db/index.ts";
import { describeTransports } from "../../server/messaging/delivery-console.service.ts";
import { drainOutbox } from "../../server/messaging/delivery.service.ts";
import { deliveryWorker, startDeliveryWorker, stopDeliveryWorker } from "../../server/messaging/delivery-worker.ts";
import { enqueueMessage } from "../../server/messaging/outbox.service.ts";
import { smsWebhookTransport, smtpTransport } from "../../server/messaging/transports.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { closedPort, startSmtpPeer, startWebhookPeer, type TSmtpPeer, type TWebhookPeer } from "../support/messaging-peers.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const FROM = "Identity <idp@example.test>";

const codeMail = (to: string, code: string) =>
  inTransaction((tx) => enqueueMessage(tx, { channel: "email", to, template: "confirm_email_code", params: { code, minutes: 10 }, purpose: "contact.confirm_email" }));

const deliveryWorkerIdle = () => deliveryWorker()!.idle();

async function failureOf(p: Promise<unknown>): Promise<TRPCError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(TRPCError);
  return e as TRPCError;
}

describe.each(DB_KINDS)("outbox and delivery settings in the console on %s", (kind) => {
  let t: TTestDatabase;
  let smtp: TSmtpPeer;
  let hook: TWebhookPeer;
  let adminId: string;
  let caller: ReturnType<typeof appRouter.createCaller>;

  beforeEach(async () => {
    t = await installTestDatabase(kind);
    smtp = await startSmtpPeer({ user: "u", pass: "p" });
    hook = await startWebhookPeer();
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    caller = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session });
  });
  afterEach(async () => {
    await stopDeliveryWorker();
    await Promise.all([smtp.close(), hook.close()]);
    await t.close();
  });

  const transports = () => ({ email: smtpTransport({ url: smtp.url, from: FROM }), sms: smsWebhookTransport({ url: hook.url }) });

  it("lists newest first in stable keyset pages, filtered by status, without the text", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await codeMail(`user${i}@example.com`, `10000${i}`)).id);
    await drainOutbox({ transports: { email: transports().email }, clock: () => new Date() });
    const pending = (await codeMail("late@example.com", "999999")).id;

    const first = await caller.console.outbox.list({ limit: 4 });
    expect(first.items.map((m) => m.id)).toEqual([pending, ...ids.slice(2).reverse()]);
    expect(JSON.stringify(first)).not.toMatch(/10000\d|999999|bodySealed/);
    // A message arriving between pages does not shift the next one.
    await codeMail("later@example.com", "888888");
    const second = await caller.console.outbox.list({ limit: 4, after: first.nextCursor! });
    expect(second.items.map((m) => m.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.nextCursor).toBeNull();

    const sent = await caller.console.outbox.list({ status: "sent" });
    expect(sent.items.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(sent.items[0]).toMatchObject({ channel: "email", status: "sent", attempts: 1, lastError: null, template: "confirm_email_code" });
    expect((await caller.console.outbox.list({ status: "pending" })).items).toHaveLength(2);
  });

  it("shows an administrator the decrypted text, and records the reading without the code", async () => {
    const { id } = await codeMail("alice@example.com", "424242");
    expect((await caller.console.outbox.text({ id })).text).toContain("424242");
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "outbox.message_read" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ subject: adminId, params: { message: id, purpose: "contact.confirm_email", to: "a***@example.com" } });
    expect(JSON.stringify(events.map((e) => e.params))).not.toContain("424242");
  });

  it("re-queues a pending message on resend, refuses a sent one and an unknown id", async () => {
    const worker = await startDeliveryWorker({ transports: {} });
    const { id } = await codeMail("bob@example.com", "135790");
    await worker.idle();
    await startDeliveryWorker({ transports: transports() }).then((w) => w.idle());
    expect(smtp.received).toHaveLength(1);

    expect((await failureOf(caller.console.outbox.resend({ id }))).code).toBe("CONFLICT");
    const other = (await codeMail("carol@example.com", "246801")).id;
    const requeued = await caller.console.outbox.resend({ id: other });
    expect(requeued).toMatchObject({ id: other, status: "pending", attempts: 0 });
    await worker.idle();
    await (await startDeliveryWorker({ transports: transports() })).idle();
    expect(smtp.received).toHaveLength(2);
    expect((await failureOf(caller.console.outbox.resend({ id: "00000000-0000-4000-8000-000000000000" }))).code).toBe("NOT_FOUND");
  });

  it("sends a test message through the transport at once and records it in the outbox", async () => {
    await startDeliveryWorker({ transports: transports() });
    const mail = await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com", locale: "en" });
    expect(mail).toMatchObject({ status: "sent", error: null });
    expect(smtp.received.map((m) => [m.to, m.subject])).toEqual([[["ops@example.com"], "Delivery test"]]);
    const sms = await caller.console.delivery.sendTest({ channel: "sms", to: "+79990001122" });
    expect(sms).toMatchObject({ status: "sent", error: null });
    expect(hook.calls[0]!.body).toMatchObject({ id: sms.messageId, to: "+79990001122", channel: "sms" });
    const listed = await caller.console.outbox.list({});
    expect(listed.items.map((m) => [m.id, m.template, m.purpose, m.status])).toEqual([
      [sms.messageId, "test_message", "console.test", "sent"],
      [mail.messageId, "test_message", "console.test", "sent"],
    ]);
  });

  it("answers the transport's own error for a failed test message, which no worker sends again", async () => {
    const port = await closedPort();
    await startDeliveryWorker({ transports: { email: smtpTransport({ url: `smtp://127.0.0.1:${port}`, from: FROM }) } });
    const result = await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/ECONNREFUSED/);
    const row = await t.db.prisma.outboxMessage.findUniqueOrThrow({ where: { id: result.messageId } });
    expect(row).toMatchObject({ status: "failed", attempts: 1, lastError: result.error });
    const later = new Date(Date.now() + 3600_000);
    expect(await drainOutbox({ transports: transports(), clock: () => later })).toEqual({ sent: 0, failed: 0, pending: 0 });

    await startDeliveryWorker({ transports: {} });
    expect(await caller.console.delivery.sendTest({ channel: "sms", to: "+79990001122" })).toMatchObject({ status: "pending", error: "no transport configured" });
  });

  it("refuses a recipient that does not fit the channel, and callers who are not administrators", async () => {
    const bad = await failureOf(caller.console.delivery.sendTest({ channel: "sms", to: "ops@example.com" }));
    expect(bad.code).toBe("BAD_REQUEST");
    const anonymous = appRouter.createCaller({ session: null });
    expect((await failureOf(anonymous.console.outbox.list({}))).code).toBe("UNAUTHORIZED");
    expect((await failureOf(anonymous.console.delivery.settings())).code).toBe("UNAUTHORIZED");
  });

  it("describes the configured transports without their secrets", async () => {
    expect(await caller.console.delivery.settings()).toEqual({ email: null, sms: null, stored: { email: null, sms: null } });
    const config = parseConfig({
      SMTP_URL: "smtp://mailer:s3cr%40t-pw@mail.example.com:587",
      MAIL_FROM: FROM,
      SMS_WEBHOOK_URL: "https://sms.example.com/hook?key=query-secret",
      SMS_WEBHOOK_TOKEN: "bearer-secret-0123456789",
    });
    const described = describeTransports(config.messaging);
    expect(described).toEqual({
      email: { url: "smtp://mailer:****@mail.example.com:587", from: FROM, source: "environment" },
      sms: { url: "https://sms.example.com/hook", bearerToken: true, source: "environment" },
    });
    expect(JSON.stringify(described)).not.toMatch(/s3cr|query-secret|bearer-secret/);
  });

  describe("delivery set in the console", () => {
    const CONFIG_KEY = Symbol.for("idp.config");
    const holder = globalThis as unknown as Record<symbol, unknown>;
    afterEach(() => {
      delete holder[CONFIG_KEY];
    });

    const emailSettings = (over: Record<string, unknown> = {}) => ({
      channel: "email" as const,
      settings: { host: "127.0.0.1", port: smtp.port, security: "none" as "none" | "starttls" | "tls", username: "u", password: "p", from: FROM, ...over },
    });

    it("sends through the SMTP server and webhook saved in the console, with the secrets sealed and never shown", async () => {
      await startDeliveryWorker();
      expect(await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" })).toMatchObject({ status: "pending" });

      const shown = await caller.console.delivery.save(emailSettings());
      expect(shown.email).toEqual({ url: `smtp://u:****@127.0.0.1:${smtp.port}`, from: FROM, source: "console" });
      expect(shown.stored.email).toEqual({ host: "127.0.0.1", port: smtp.port, security: "none", username: "u", passwordSet: true, from: FROM });
      await caller.console.delivery.save({ channel: "sms", settings: { url: hook.url, token: "hook-bearer-0123456789" } });

      // The message left pending before the save goes now, and so does a new test.
      const test = await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com", locale: "en" });
      expect(test).toMatchObject({ status: "sent", error: null });
      await deliveryWorkerIdle();
      expect(smtp.received.map((m) => m.to[0])).toEqual(["ops@example.com", "ops@example.com"]);
      expect(await caller.console.delivery.sendTest({ channel: "sms", to: "+79990001122" })).toMatchObject({ status: "sent" });
      expect(hook.calls.at(-1)!.headers.authorization).toBe("Bearer hook-bearer-0123456789");

      const row = await t.db.prisma.deliverySettings.findUniqueOrThrow({ where: { id: "default" } });
      expect(row.smtpPassword).toMatch(/^v2\./);
      expect(row.smsWebhookToken).toMatch(/^v2\./);
      const everything = JSON.stringify([row, await caller.console.delivery.settings(), await t.db.prisma.securityEvent.findMany({ select: { params: true } })]);
      expect(everything).not.toMatch(/"p"|hook-bearer/);
      const changes = await t.db.prisma.securityEvent.findMany({ where: { type: "delivery.settings_changed" }, orderBy: { id: "asc" } });
      expect(changes.map((e) => [e.subject, (e.params as Record<string, unknown>).channel, (e.params as Record<string, unknown>).secretChanged])).toEqual([
        [adminId, "email", true],
        [adminId, "sms", true],
      ]);

      // Saved again without a password: the stored one stays. Cleared: messages wait again.
      await caller.console.delivery.save(emailSettings({ password: undefined }));
      expect(await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" })).toMatchObject({ status: "sent" });
      const cleared = await caller.console.delivery.save({ channel: "email", settings: null });
      expect(cleared.email).toBeNull();
      expect(await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" })).toMatchObject({ status: "pending", error: "no transport configured" });
    });

    it("connects to a console-typed server only under the outbound rules", async () => {
      await startDeliveryWorker();
      await caller.console.delivery.save(emailSettings({ host: "169.254.169.254", port: 25, security: "starttls" }));
      const mail = await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" });
      expect(mail).toMatchObject({ status: "failed" });
      expect(mail.error).toMatch(/169\.254\.169\.254 is a private, loopback or link-local address/);
      await caller.console.delivery.save({ channel: "sms", settings: { url: "https://10.1.2.3/hook" } });
      const sms = await caller.console.delivery.sendTest({ channel: "sms", to: "+79990001122" });
      expect(sms.error).toMatch(/10\.1\.2\.3 is a private/);
    });

    it("lets the environment win for the channel it sets", async () => {
      holder[CONFIG_KEY] = parseConfig({ ...process.env, SMTP_URL: smtp.url, MAIL_FROM: "Env <env@example.test>" });
      await caller.console.delivery.save(emailSettings({ host: "mail.example.com", security: "starttls", from: "Console <c@example.test>" }));
      await startDeliveryWorker();
      const shown = await caller.console.delivery.settings();
      expect(shown.email).toMatchObject({ from: "Env <env@example.test>", source: "environment" });
      expect(shown.stored.email).toMatchObject({ host: "mail.example.com" });
      expect(await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" })).toMatchObject({ status: "sent" });
      expect(smtp.received[0]!.from).toBe("env@example.test");
    });

    it("drops a saved secret that a save would send somewhere else, unless it is typed again", async () => {
      await caller.console.delivery.save(emailSettings());
      await caller.console.delivery.save({ channel: "sms", settings: { url: hook.url, token: "hook-bearer-0123456789" } });
      const stored = () => t.db.prisma.deliverySettings.findUniqueOrThrow({ where: { id: "default" } });
      // Same server, same user, no password typed: kept. Another port: dropped.
      await caller.console.delivery.save(emailSettings({ password: undefined, from: "Other <o@example.test>" }));
      expect((await stored()).smtpPassword).not.toBeNull();
      await caller.console.delivery.save(emailSettings({ password: undefined, port: smtp.port + 1 }));
      expect((await stored()).smtpPassword).toBeNull();
      expect((await caller.console.delivery.settings()).stored.email).toMatchObject({ passwordSet: false });
      // The webhook on the same origin keeps its token; on another one it loses it.
      await caller.console.delivery.save({ channel: "sms", settings: { url: `${hook.url}/v2` } });
      expect((await stored()).smsWebhookToken).not.toBeNull();
      await caller.console.delivery.save({ channel: "sms", settings: { url: "https://sms.example.test/hook" } });
      expect((await stored()).smsWebhookToken).toBeNull();
    });

    it("requires the STARTTLS upgrade it is set to, rather than sending the login in clear", async () => {
      await startDeliveryWorker();
      // The loopback peer offers no STARTTLS: an attacker on the way could have stripped it.
      await caller.console.delivery.save(emailSettings({ security: "starttls" }));
      const result = await caller.console.delivery.sendTest({ channel: "email", to: "ops@example.com" });
      expect(result.status).toBe("failed");
      expect(result.error).toMatch(/STARTTLS/i);
      expect(smtp.received).toHaveLength(0);
    });

    it("refuses bad settings field by field, and callers who may not configure", async () => {
      const bad = await failureOf(caller.console.delivery.save({ channel: "email", settings: { host: "mail example", port: 0, security: "starttls", from: "nobody" } }));
      expect(bad.code).toBe("BAD_REQUEST");
      const hook2 = await failureOf(caller.console.delivery.save({ channel: "sms", settings: { url: "javascript:alert(1)", token: "short" } }));
      expect(hook2.code).toBe("BAD_REQUEST");
      for (const settings of [
        { host: "10.0.0.1:25", port: 25, security: "starttls", from: FROM },
        { host: "mail.example.com", port: 25, security: "none", from: FROM },
        { host: "mail.example.com", port: 25, security: "tls", from: "Acme, <a@example.com>" },
      ]) {
        expect((await failureOf(caller.console.delivery.save({ channel: "email", settings: settings as never }))).code).toBe("BAD_REQUEST");
      }
      const clear = await failureOf(caller.console.delivery.save({ channel: "sms", settings: { url: "http://sms.example.com/hook" } }));
      expect(clear.message).toMatch(/must be https/);
      const inUrl = await failureOf(caller.console.delivery.save({ channel: "sms", settings: { url: "https://sms.example.com/hook?key=secret" } }));
      expect(inUrl.message).toMatch(/bearer token/);
      expect(await t.db.prisma.deliverySettings.count()).toBe(0);
      const anonymous = appRouter.createCaller({ session: null });
      expect((await failureOf(anonymous.console.delivery.save({ channel: "sms", settings: null }))).code).toBe("UNAUTHORIZED");
    });
  });
});
