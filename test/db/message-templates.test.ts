import type { Session } from "next-auth";
import { TRPCError } from "@trpc/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { enqueueMessage } from "../../server/messaging/outbox.service.ts";
import { unsealFor } from "../../server/crypto/keys.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Administrators rewrite message texts per template, channel and language; messages written
// afterwards use the rewritten text with the placeholders filled, and "reset" brings the built-in back.

async function failureOf(p: Promise<unknown>): Promise<TRPCError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(TRPCError);
  return e as TRPCError;
}

describe.each(DB_KINDS)("message templates in the console on %s", (kind) => {
  let t: TTestDatabase;
  let adminId: string;
  let caller: ReturnType<typeof appRouter.createCaller>;

  beforeEach(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    caller = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session });
  });
  afterEach(() => t.close());

  const codeMail = () =>
    inTransaction((tx) => enqueueMessage(tx, { channel: "email", to: "ann@example.com", template: "confirm_email_code", locale: "en", params: { code: "424242", minutes: 15 }, purpose: "contact.confirm_email" }));
  const sentText = async (id: string) => {
    const row = await t.db.prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
    return { subject: row.subject, text: unsealFor("outbox", row.bodySealed) };
  };

  it("lists every text with its placeholders, previews and uses a rewritten one, and resets it", async () => {
    const list = await caller.console.templates.list();
    const entry = list.find((e) => e.template === "confirm_email_code" && e.channel === "email" && e.locale === "en")!;
    expect(entry).toMatchObject({ names: ["code", "validity"], required: ["code"], rewritten: null, builtIn: { subject: "Your e-mail confirmation code" } });
    expect(entry.builtIn.text).toContain("{code}");
    // One entry per channel a template goes by: no e-mail form of a phone code.
    expect(list.some((e) => e.template === "confirm_phone_code" && e.channel === "email")).toBe(false);
    expect(list).toHaveLength(2 * 15);

    const rewritten = { template: "confirm_email_code" as const, channel: "email" as const, locale: "en" as const, subject: "Acme: your code, valid for {validity}", text: "Hello from Acme!\nYour code is {code}, valid for {validity}.\n" };
    expect(await caller.console.templates.preview(rewritten)).toEqual({ subject: "Acme: your code, valid for 10 minutes", text: "Hello from Acme!\nYour code is 123456, valid for 10 minutes.\n" });
    // A preview stores nothing.
    expect(await t.db.prisma.messageTemplate.count()).toBe(0);

    await caller.console.templates.save(rewritten);
    expect(await sentText((await codeMail()).id)).toEqual({ subject: "Acme: your code, valid for 15 minutes", text: "Hello from Acme!\nYour code is 424242, valid for 15 minutes.\n" });
    // Other languages keep their own text.
    const ru = await inTransaction((tx) => enqueueMessage(tx, { channel: "email", to: "ann@example.com", template: "confirm_email_code", locale: "ru", params: { code: "111222", minutes: 15 }, purpose: "x" }));
    expect((await sentText(ru.id)).subject).toBe("Код подтверждения адреса электронной почты");
    expect((await caller.console.templates.list()).find((e) => e.template === "confirm_email_code" && e.locale === "en")!.rewritten).toMatchObject({ subject: rewritten.subject, text: rewritten.text });

    await caller.console.templates.reset({ template: "confirm_email_code", channel: "email", locale: "en" });
    expect((await sentText((await codeMail()).id)).subject).toBe("Your e-mail confirmation code");
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "delivery.template_changed" }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.subject, e.params])).toEqual([
      [adminId, { template: "confirm_email_code", channel: "email", locale: "en", reset: false }],
      [adminId, { template: "confirm_email_code", channel: "email", locale: "en", reset: true }],
    ]);
  });

  it("refuses a text that drops the code, uses unknown placeholders, or does not fit its channel, changing nothing", async () => {
    const base = { template: "confirm_email_code" as const, channel: "email" as const, locale: "en" as const };
    const refused = await failureOf(caller.console.templates.save({ ...base, subject: "Line\nbreak {secret}", text: "No code here, only {user_password}." }));
    expect(refused.code).toBe("BAD_REQUEST");
    const items = (refused.cause as AppError).details.items!;
    expect(items.map((i) => i.pos)).toEqual(["subject", "text", "text"]);
    expect(items[1]!.desc).toBe("uses {user_password}, which this message does not have (it has: {code}, {validity})");
    expect(items[2]!.desc).toMatch(/must contain \{code\}/);

    expect((await failureOf(caller.console.templates.save({ template: "confirm_phone_code", channel: "email", locale: "en", subject: "s", text: "{code}" }))).code).toBe("BAD_REQUEST");
    expect((await failureOf(caller.console.templates.save({ template: "confirm_phone_code", channel: "sms", locale: "en", subject: "s", text: "{code}" }))).code).toBe("BAD_REQUEST");
    expect((await failureOf(caller.console.templates.preview({ ...base, subject: "ok", text: "   " }))).code).toBe("BAD_REQUEST");
    expect(await t.db.prisma.messageTemplate.count()).toBe(0);

    const anonymous = appRouter.createCaller({ session: null });
    expect((await failureOf(anonymous.console.templates.list())).code).toBe("UNAUTHORIZED");
  });

  it("keeps a code, link or password out of the subject, which the outbox shows every console role unencrypted", async () => {
    const refused = await failureOf(caller.console.templates.save({ template: "recovery_email_code", channel: "email", locale: "en", subject: "Reset code {code}", text: "{code}" }));
    expect((refused.cause as AppError).details.items).toEqual([expect.objectContaining({ pos: "subject", desc: expect.stringMatching(/must not carry \{code\}/) })]);
    expect((await failureOf(caller.console.templates.preview({ template: "recovery_invite", channel: "email", locale: "en", subject: "{link}", text: "{link}" }))).code).toBe("BAD_REQUEST");
    expect(await t.db.prisma.messageTemplate.count()).toBe(0);

    // A text stored before the rule (or behind the service's back) still never puts the code there.
    await t.db.prisma.messageTemplate.create({ data: { template: "confirm_email_code", channel: "email", locale: "en", subject: "Code {code}", body: "Code {code}" } });
    expect(await sentText((await codeMail()).id)).toEqual({ subject: "Code {code}", text: "Code 424242" });
  });

  it("fills a value that looks like a placeholder only once", async () => {
    await caller.console.templates.save({ template: "account_notice", channel: "sms", locale: "en", subject: null, text: "{event} at {when}. Not you? Call us." });
    const { id } = await inTransaction((tx) =>
      enqueueMessage(tx, { channel: "sms", to: "+79990001122", template: "account_notice", locale: "en", params: { kind: "external_linked", when: "2026-11-28T03:41:07.123Z", from: null, device: "{event}", detail: "{when}" }, purpose: "notice" }),
    );
    expect((await sentText(id)).text).toBe("An external account was linked to your account at 2026-11-28 03:41 UTC. Not you? Call us.");
  });
});
