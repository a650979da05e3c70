import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { readAuthModes } from "../../server/auth-modes/auth-modes.service.ts";
import { checkCredentials } from "../../server/sign-in/sign-in.service.ts";
import { consoleUserName } from "../../server/auth/console-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// An administrator cannot lock or delete the account they are signed in to the console with (they
// may be the last administrator, and a locked one could not sign in again to undo it); another
// administrator can. The account's page says which one is the viewer's own.

const callerFor = (id: string) => appRouter.createCaller({ session: { user: { id }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => "accepted",
    (e: { code?: string; cause?: { code?: string } }) => `${e.code} ${e.cause?.code}`,
  );

describe.each(DB_KINDS)("the console's administrators and their own accounts on %s", (kind) => {
  let t: TTestDatabase;
  let adminId: string;
  const second = `deputy-${kind}`;
  const person = `person-${kind}`;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    await importDocument(
      {
        users: [
          { sub: second, roles: ["admin"], attributes: { given_name: "Second" } },
          { sub: person, attributes: { email: { value: `${person}@example.org`, vrf: true } }, password: "the person's first passphrase" },
        ],
      },
      {},
    );
  });
  afterAll(async () => t?.close());

  const account = (id: string) => t.db.prisma.user.findUnique({ where: { id }, select: { locked: true } });
  const eventsOf = (id: string) => t.db.prisma.securityEvent.count({ where: { subject: id } });

  it("refuses to create an account with neither a subject nor a contact, and creates one with either", async () => {
    const admin = callerFor(adminId);
    const before = await t.db.prisma.user.count();
    for (const attributes of [{}, { sub: "", given_name: "Nobody" }, { sub: "  ", email: { value: " ", vrf: false } }, { phone_number: { value: "", vrf: false } }]) {
      const refused = await admin.console.users.create({ attributes }).then(
        () => null,
        (e: { cause?: { code?: string; details?: { items?: { pos: string; desc: string }[] } } }) => e.cause,
      );
      expect(refused?.code, JSON.stringify(attributes)).toBe("request.invalid_values");
      expect(refused?.details?.items).toEqual([expect.objectContaining({ pos: "sub", desc: expect.stringContaining("give a subject, an e-mail or a phone") })]);
    }
    expect(await t.db.prisma.user.count()).toBe(before);
    const byMail = await admin.console.users.create({ attributes: { sub: "", email: { value: `mail-only-${kind}@example.org`, vrf: false } } });
    expect(byMail.sub).not.toBe("");
    expect((await admin.console.users.create({ attributes: { sub: `named-${kind}` } })).sub).toBe(`named-${kind}`);
  });

  it("finds the bootstrap administrator by login (a prefix or a part of it) and lists logins", async () => {
    const admin = callerFor(adminId);
    for (const search of ["adm", "dmi", "ADMIN"]) {
      const page = await admin.console.users.list({ search });
      expect(page.items.map((r) => [r.sub, r.login]), search).toEqual([[adminId, "admin"]]);
      expect(page.total).toBe(1);
    }
    // An account without a login shows none; a search by its attributes still finds it.
    expect((await admin.console.users.list({ search: "Second" })).items.map((r) => [r.sub, r.login])).toEqual([[second, null]]);
  });

  it("names the signed-in administrator in the header by their account's name, or not at all without one", async () => {
    expect(await consoleUserName({ id: second })).toBe("Second");
    expect(await consoleUserName({ id: adminId })).toBeNull();
  });

  it("marks the viewer's own account, and no other", async () => {
    const admin = callerFor(adminId);
    expect((await admin.console.users.get({ sub: adminId })).ownAccount).toBe(true);
    expect((await admin.console.users.get({ sub: second })).ownAccount).toBe(false);
  });

  it("refuses to lock or delete the account the administrator is signed in with, and changes nothing", async () => {
    const admin = callerFor(adminId);
    const own = await admin.console.users.get({ sub: adminId });
    const events = await eventsOf(adminId);
    expect(await refusal(admin.console.users.setLocked({ instanceId: own.instanceId, locked: true }))).toBe("CONFLICT console.own_account");
    expect(await refusal(admin.console.users.update({ instanceId: own.instanceId, attributes: { locked: true } }))).toBe("CONFLICT console.own_account");
    expect(await refusal(admin.console.users.delete({ instanceId: own.instanceId }))).toBe("CONFLICT console.own_account");
    expect(await account(adminId)).toEqual({ locked: false });
    expect(await eventsOf(adminId)).toBe(events);
    // The rest of the own account stays editable.
    const renamed = await admin.console.users.update({ instanceId: own.instanceId, attributes: { given_name: "Root" } });
    expect(renamed).toMatchObject({ ownAccount: true, attributes: { given_name: "Root" } });
  });

  it("lets another administrator lock and unlock it", async () => {
    const other = callerFor(second);
    const target = await other.console.users.get({ sub: adminId });
    expect(target.ownAccount).toBe(false);
    const locked = await other.console.users.setLocked({ instanceId: target.instanceId, locked: true });
    expect(await account(adminId)).toEqual({ locked: true });
    // Locked, the first administrator is no console user any more.
    expect(await refusal(callerFor(adminId).console.users.get({ sub: adminId }))).toBe("UNAUTHORIZED undefined");
    await other.console.users.setLocked({ instanceId: locked.instanceId, locked: false });
    expect(await account(adminId)).toEqual({ locked: false });
  });

  it("sets a person's password under the policy, ends nothing else of the account, tells them, and asks for a new one at the next sign-in when told to", async () => {
    const admin = callerFor(adminId);
    const target = await admin.console.users.get({ sub: person });
    const hashBefore = (await t.db.prisma.user.findUniqueOrThrow({ where: { id: person }, select: { passwordHash: true } })).passwordHash;
    // A password the policy refuses changes nothing and says why, in the console's language.
    const short = await admin.console.users.setPassword({ instanceId: target.instanceId, password: "short", mustChange: false, locale: "ru" }).catch((e: { code: string; cause: { details: { items: { desc: string }[] } } }) => e);
    expect(short).toMatchObject({ code: "BAD_REQUEST" });
    expect((short as { cause: { details: { items: { desc: string }[] } } }).cause.details.items[0]!.desc).toMatch(/[а-я]/);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: person }, select: { passwordHash: true } })).passwordHash).toBe(hashBefore);

    const after = await admin.console.users.setPassword({ instanceId: target.instanceId, password: "a new passphrase set by the administrator", mustChange: true, locale: "en" });
    expect(after.sub).toBe(person);
    expect(await checkCredentials({ identifier: person, password: "a new passphrase set by the administrator" }, {})).toMatchObject({ ok: true });
    expect(await checkCredentials({ identifier: person, password: "the person's first passphrase" }, {})).toMatchObject({ ok: false });
    expect((await readAuthModes(person)).needPasswordChange).toBe(true);
    const changed = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { subject: person, type: "user.password_changed" }, orderBy: { id: "desc" } });
    expect(changed.params).toMatchObject({ mode: "system", by: "console", generated: false });
    const notice = await t.db.prisma.outboxMessage.findFirstOrThrow({ where: { userId: person, purpose: "notice.password_reset" } });
    expect(notice).toMatchObject({ channel: "email", recipient: `${person}@example.org` });
    expect(notice.bodySealed).not.toContain("a new passphrase");
  });
});
