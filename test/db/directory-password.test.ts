import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInFromDirectories } from "../../server/directories/directory-sign-in.service.ts";
import { passwordMatches } from "../../server/directories/ldap-client.ts";
import { findDirectory } from "../../server/directories/directories.repository.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { changePassword } from "../../server/passwords/password-change.service.ts";
import { ownPasswordRules } from "../../server/portal/password.service.ts";
import { readAccount } from "../../server/users/users.service.ts";
import { BASE_DN, person, READER, ROOT, startSlapd, type TSlapd } from "../support/slapd.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

/*
 * Password changes of a directory's accounts against a real slapd (ppolicy keeps the last three
 * passwords): refused unless the directory's settings let this service write them; written there
 * as the person (checked by the directory) or, for a reset, with the service's bind, which needs
 * that right there. Nothing of any password is stored here.
 */

const PEOPLE = ["olga", "pavel", "rita", "semen"].map((uid) => ({ uid, password: `${uid}-Directory-Pass-1`, givenName: uid, sn: "Test" }));
const dnOf = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;
const actor = { clientId: "rp-web", ip: "203.0.113.7" };
const user = { mode: "user" as const, actor };
// An administrator's reset (the console, an application's system token); a recovery is system mode without it.
const system = { mode: "system" as const, actor: { clientId: "users-app" }, administratorReset: true };
const recovery = { mode: "system" as const, actor: { clientId: "rp-web" }, note: { by: "recovery" } };

async function refusal(p: Promise<unknown>): Promise<{ code: string; desc?: string }> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return { code: (e as AppError).code, desc: (e as AppError).details.items?.[0]?.desc };
}

describe.each(DB_KINDS)("directory password changes on %s", (kind) => {
  let t: TTestDatabase;
  let slapd: TSlapd;
  const directory = (id: string, over: Record<string, unknown>) => ({
    id, name: id, url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password, baseDn: `ou=people,${BASE_DN}`,
    userFilter: `(&(objectClass=inetOrgPerson)(sn=Test))`, ...over,
  });
  // The directory's entry is the account's password: does the directory take this one?
  const binds = async (uid: string, password: string) => passwordMatches((await findDirectory("corp"))!, dnOf(uid), password);
  const change = async (uid: string, input: { current?: string; password?: string }, how: Parameters<typeof changePassword>[2]) =>
    changePassword(await readAccount(uid), { locale: "en", ...input }, how);
  const setMode = (passwordChange: string, bind = READER) => importDocument({ directories: [directory("corp", { passwordChange, bindDn: bind.dn, bindPassword: bind.password })] }, {});

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    slapd = await startSlapd(PEOPLE.map(person).join(""));
    await setMode("off");
    for (const p of PEOPLE) expect((await signInFromDirectories(p.uid, p.password, actor)).kind).toBe("ok");
  });
  afterAll(async () => {
    await slapd?.close();
    await t?.close();
  });

  it("refuses any change while the directory keeps its passwords to itself, and says so", async () => {
    expect(await refusal(change("olga", { current: PEOPLE[0]!.password, password: "olga-Changed-Pass-2" }, user))).toMatchObject({ code: "password.kept_in_directory" });
    expect(await refusal(change("olga", { password: "olga-Changed-Pass-2" }, system))).toMatchObject({ code: "password.kept_in_directory" });
    expect(await binds("olga", PEOPLE[0]!.password)).toBe(true);
    // The portal's page says where to change it instead of showing a form that cannot work.
    expect(await ownPasswordRules("olga")).toMatchObject({ directory: { name: "corp", writable: false } });
    const failed = await t.db.prisma.securityEvent.findMany({ where: { subject: "olga", type: "user.password_change_failed" }, select: { params: true } });
    expect(failed.map((e) => e.params)).toEqual([{ reason: "kept_in_directory", directory: "corp" }, { reason: "kept_in_directory", directory: "corp" }]);
  });

  it("writes the person's own change into the directory, which checks the current password and its own policy; a reset stays refused", async () => {
    await setMode("self");
    expect(await ownPasswordRules("pavel")).toMatchObject({ directory: { name: "corp", writable: true } });
    const [old, next] = [PEOPLE[1]!.password, "pavel-Changed-Pass-2"];
    expect(await refusal(change("pavel", { current: "not-the-password", password: next }, user))).toMatchObject({ code: "password.invalid_credential" });
    expect(await binds("pavel", old)).toBe(true);

    await change("pavel", { current: old, password: next }, user);
    expect([await binds("pavel", next), await binds("pavel", old)]).toEqual([true, false]);
    // The password is the directory's alone: nothing of it here.
    expect((await t.db.prisma.user.findUnique({ where: { id: "pavel" }, select: { passwordHash: true } }))!.passwordHash).toBeNull();
    expect(await t.db.prisma.passwordHistory.count({ where: { userId: "pavel" } })).toBe(0);
    const changed = await t.db.prisma.securityEvent.findFirst({ where: { subject: "pavel", type: "user.password_changed" }, select: { params: true } });
    expect(changed!.params).toMatchObject({ mode: "user", directory: "corp" });

    // Back to the old one: in the directory's history (ppolicy), so the directory refuses it, in its words.
    const refused = await refusal(change("pavel", { current: next, password: old }, user));
    expect(refused.code).toBe("password.policy_violated");
    expect(refused.desc).toMatch(/^the directory refused the password: .*history/i);
    expect(refused.desc).not.toMatch(/Code: 0x/);
    expect(await binds("pavel", next)).toBe(true);
    // This service's own policy still holds first.
    expect((await refusal(change("pavel", { current: next, password: "short" }, user))).code).toBe("password.policy_violated");

    expect(await refusal(change("pavel", { password: "pavel-Reset-Pass-3" }, system))).toMatchObject({ code: "password.kept_in_directory" });
    expect(await binds("pavel", next)).toBe(true);
  });

  it("writes an administrator's reset only where the directory lets the service do it", async () => {
    // The read-only service account: the directory refuses, and says why.
    await setMode("self_and_reset");
    const refused = await refusal(change("rita", { password: "rita-Reset-Pass-2" }, system));
    expect(refused.code).toBe("password.policy_violated");
    expect(refused.desc).toMatch(/^the directory refused the password/);
    expect(await binds("rita", PEOPLE[2]!.password)).toBe(true);
    // A service account with the right to reset.
    await setMode("self_and_reset", ROOT);
    // A recovery ("Forgot password?"), a master's change of a slave account: not a reset the directory's owner allowed.
    expect(await refusal(change("rita", { password: "rita-Recovered-Pass-2" }, recovery))).toMatchObject({ code: "password.kept_in_directory" });
    await change("rita", { password: "rita-Reset-Pass-2" }, system);
    expect([await binds("rita", "rita-Reset-Pass-2"), await binds("rita", PEOPLE[2]!.password)]).toEqual([true, false]);

    // Rita's entry is deleted and a newcomer gets her name, and so her DN: the reset of the old account is not written into the newcomer's entry.
    slapd.modify(`dn: ${dnOf("rita")}\nchangetype: delete\n\n${person({ uid: "rita", password: "newcomer-Pass-1", givenName: "Rita", sn: "Test" }).replace(/^dn: (.*)$/m, "dn: $1\nchangetype: add")}`);
    expect(await refusal(change("rita", { password: "rita-Reset-Pass-3" }, system))).toMatchObject({ code: "password.kept_in_directory" });
    expect(await binds("rita", "newcomer-Pass-1")).toBe(true);
  });

  it("changes nothing and counts no attempt while the directory cannot be reached", async () => {
    await setMode("self");
    await slapd.stop();
    try {
      for (let i = 0; i < 4; i++) expect(await refusal(change("semen", { current: PEOPLE[3]!.password, password: "semen-Changed-Pass-2" }, user))).toMatchObject({ code: "password.directory_unavailable" });
    } finally {
      await slapd.start();
    }
    // Four tries while it was down did not use up the attempts: the right password works now.
    await change("semen", { current: PEOPLE[3]!.password, password: "semen-Changed-Pass-2" }, user);
    expect(await binds("semen", "semen-Changed-Pass-2")).toBe(true);
  });
});
