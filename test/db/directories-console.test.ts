import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { unsealFor } from "../../server/crypto/keys.ts";
import { testConnection } from "../../server/directories/directories-console.service.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { adminCaller, type TConsoleCaller } from "../support/console-caller.ts";
import { BASE_DN, directoryOf, person, READER, startSlapd, type TSlapd } from "../support/slapd.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Directories added, edited, tested and deleted through the console's calls, against a real slapd:
// the settings checked as the import checks them, the bind password sealed and never shown, a
// connection test that reports each step and writes nothing.

let slapd: TSlapd;
beforeAll(async () => {
  slapd = await startSlapd(
    person({ uid: "anna", password: "anna-password", givenName: "Anna", sn: "Petrova", mail: "Anna.Petrova@Example.org" }) +
      person({ uid: "boris", password: "boris-password", givenName: "Boris", sn: "Ivanov" }),
  );
});
afterAll(async () => slapd?.close());

/** "CODE appCode" of a refused call, or the items it names ("url: …"), or "accepted". */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => "accepted",
    (e: { code?: string; cause?: { code?: string } }) => `${e.code} ${e.cause?.code ?? ""}`.trim(),
  );
const fieldsOf = (call: Promise<unknown>) =>
  call.then(
    () => [],
    (e: { code?: string; cause?: { details?: { items?: { pos: string }[] }; issues?: { path: (string | number)[] }[] } }) => [
      e.code,
      ...(e.cause?.details?.items?.map((i) => i.pos) ?? e.cause?.issues?.map((i) => i.path.join(".")) ?? []),
    ],
  );

describe.each(DB_KINDS)("directories in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: TConsoleCaller;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
    ({ admin } = await adminCaller(t, "203.0.113.7"));
  });
  afterEach(async () => t.close());

  const RULES = [{ from: "givenName", to: "given_name" }, { from: "mail", to: "email", transform: "email" as const, verified: true }];
  const corp = (over: Record<string, unknown> = {}) => directoryOf(slapd, { attributes: RULES, ...over });
  const row = () => t.db.prisma.directory.findUniqueOrThrow({ where: { id: "corp" } });
  const events = (type: string) => t.db.prisma.securityEvent.findMany({ where: { type }, orderBy: { id: "asc" }, select: { subject: true, ip: true, params: true } });

  it("adds a directory with its bind password sealed, and shows its settings without the password or the CA", async () => {
    const view = await admin.console.directories.create(corp());
    expect(view).toMatchObject({ id: "corp", name: "Corporate directory", hasCaCert: true, mode: "on_demand", userFilter: "(objectClass=inetOrgPerson)" });
    const stored = await row();
    expect(stored.bindPassword).not.toContain(READER.password);
    expect(unsealFor("directory-secrets", stored.bindPassword)).toBe(READER.password);
    const shown = await admin.console.directories.get({ id: "corp" });
    expect(shown).toMatchObject({ id: "corp", url: slapd.ldapsUrl, hasCaCert: true, loginAttribute: "uid", attributes: RULES });
    expect(shown).not.toHaveProperty("bindPassword");
    expect(shown).not.toHaveProperty("caCert");
    for (const answer of [view, shown, await admin.console.directories.list()]) {
      expect(JSON.stringify(answer)).not.toContain(READER.password);
      expect(JSON.stringify(answer)).not.toContain("BEGIN CERTIFICATE");
    }
    const [created] = await events("directory.created");
    expect(created).toMatchObject({ ip: "203.0.113.7", params: { directory: "corp", url: slapd.ldapsUrl, mode: "on_demand" } });
    expect(created!.subject).toBeTruthy();
    expect(JSON.stringify(created)).not.toContain(READER.password);
  });

  it("refuses settings that cannot be used as the import does, naming the field, and writes nothing", async () => {
    expect(await fieldsOf(admin.console.directories.create(corp({ url: "ldap://dc1.corp.example", startTls: false })))).toEqual(["BAD_REQUEST", "url"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ url: "ldaps://dc1.corp.example/dc=corp" })))).toEqual(["BAD_REQUEST", "url"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ userFilter: "(uid=anna" })))).toEqual(["BAD_REQUEST", "userFilter"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ disabledFilter: "pwdAccountLockedTime=*)" })))).toEqual(["BAD_REQUEST", "disabledFilter"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ caCert: "not a certificate" })))).toEqual(["BAD_REQUEST", "caCert"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ caCert: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" })))).toEqual(["BAD_REQUEST", "caCert"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ attributes: [{ from: "mail", to: "email" }, { from: "uid", to: "email" }] })))).toEqual(["BAD_REQUEST", "attributes.1.to"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ attributes: [{ from: "sn", to: "family_name", verified: true }] })))).toEqual(["BAD_REQUEST", "attributes.0.verified"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ bindPassword: "" })))).toEqual(["BAD_REQUEST", "bindPassword"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ loginAttribute: "uid)(x" })))).toEqual(["BAD_REQUEST", "loginAttribute"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ groups: { baseDn: "ou=groups,dc=example,dc=org", filter: "(cn=x" } })))).toEqual(["BAD_REQUEST", "groups.filter"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ passwordChange: "always" })))).toEqual(["BAD_REQUEST", "passwordChange"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ attributes: [{ from: "nsAccountLock", to: "locked" }] })))).toEqual(["BAD_REQUEST", "attributes.0.to"]);
    expect(await fieldsOf(admin.console.directories.create(corp({ attributes: [{ from: "uid", to: "sub" }] })))).toEqual(["BAD_REQUEST", "attributes.0.to"]);
    // The import refuses the same settings, with the same words, at its own positions.
    const refusedByImport = await importDocument({ directories: [corp({ attributes: [{ from: "mail", to: "email" }, { from: "uid", to: "email" }] })] }, {}).then(
      () => [],
      (e: { details: { items: { pos: string; desc: string }[] } }) => e.details.items,
    );
    expect(refusedByImport).toEqual([{ error: "wrong_value", pos: "$.directories[0].attributes[1].to", desc: "email is filled by an earlier rule" }]);
    expect(await t.db.prisma.directory.count()).toBe(0);
    expect(await t.db.prisma.securityEvent.count({ where: { type: { startsWith: "directory." } } })).toBe(0);
  });

  it("gives a clean 409 to every add of an id that is taken, however close the adds are", async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => outcome(admin.console.directories.create(corp({ name: `Racer ${n}` })))));
    expect(outcomes.filter((o) => o === "accepted")).toHaveLength(1);
    expect(outcomes.filter((o) => o !== "accepted")).toEqual(["CONFLICT directory.exists", "CONFLICT directory.exists", "CONFLICT directory.exists"]);
    expect(await outcome(admin.console.directories.create(corp()))).toBe("CONFLICT directory.exists");
    expect(await t.db.prisma.directory.count()).toBe(1);
    expect(await events("directory.created")).toHaveLength(1);
  });

  it("keeps the sealed password when an edit leaves it empty, and changes the CA only when asked", async () => {
    await admin.console.directories.create(corp());
    const sealed = (await row()).bindPassword;
    const { hasCaCert: _, ...shown } = await admin.console.directories.get({ id: "corp" });

    // What the form sends back with a new name: no password, no CA.
    await admin.console.directories.update({ ...shown, name: "Renamed", bindPassword: "" });
    expect(await row()).toMatchObject({ name: "Renamed", bindPassword: sealed, caCert: slapd.caPem });
    // The same form again changes nothing, and says nothing.
    await admin.console.directories.update({ ...shown, name: "Renamed", bindPassword: "" });
    expect((await events("directory.updated")).map((e) => e.params)).toEqual([{ directory: "corp", changed: ["name"] }]);

    // Another address needs the password typed again: the stored one goes only where it was given for.
    expect(await fieldsOf(admin.console.directories.update({ ...shown, url: slapd.ldapUrl, bindPassword: "" }))).toEqual(["BAD_REQUEST", "bindPassword"]);
    await admin.console.directories.update({ ...shown, url: slapd.ldapUrl, bindPassword: "rotated-password" });
    const rotated = await row();
    expect(rotated.bindPassword).not.toBe(sealed);
    expect(rotated.bindPassword).not.toContain("rotated-password");
    expect(unsealFor("directory-secrets", rotated.bindPassword)).toBe("rotated-password");

    // So does another trust: a CA removed (or replaced, or StartTLS turned off) with the stored password is refused.
    expect(await fieldsOf(admin.console.directories.update({ ...shown, url: slapd.ldapUrl, caCert: null }))).toEqual(["BAD_REQUEST", "bindPassword"]);
    await admin.console.directories.update({ ...shown, url: slapd.ldapUrl, caCert: null, bindPassword: "rotated-password" });
    expect((await row()).caCert).toBeNull();
    expect((await admin.console.directories.get({ id: "corp" })).hasCaCert).toBe(false);
    const changes = (await events("directory.updated")).map((e) => e.params);
    expect(changes).toEqual([
      { directory: "corp", changed: ["name"] },
      { directory: "corp", changed: ["name", "url", "bindPassword"] },
      { directory: "corp", changed: ["caCert"] },
    ]);
    expect(JSON.stringify(changes)).not.toContain("rotated-password");
    // Group mapping and password write-back are settings like the others: saved, shown, and removed again.
    const groups = { baseDn: "ou=groups,dc=example,dc=org", filter: "(objectClass=groupOfNames)", nameAttribute: "cn", memberAttribute: "member", nesting: "expand" as const, profile: "directory_groups", only: ["engineering"] };
    await admin.console.directories.update({ ...shown, url: slapd.ldapUrl, caCert: null, passwordChange: "self", groups });
    expect(await admin.console.directories.get({ id: "corp" })).toMatchObject({ passwordChange: "self", passwordProtocol: "rfc3062", groups });
    await admin.console.directories.update({ ...shown, url: slapd.ldapUrl, caCert: null, passwordChange: "off", groups: undefined });
    expect((await admin.console.directories.get({ id: "corp" })).groups).toBeUndefined();
    expect((await row()).groupMap).toBeNull();
    // The id is what is edited, never edited itself.
    expect(await outcome(admin.console.directories.update({ ...shown, id: "other" }))).toBe("NOT_FOUND directory.not_found");
  });

  it("tests a connection step by step, with the stored password when the form leaves it empty, and writes nothing", async () => {
    const before = { users: await t.db.prisma.user.count(), events: await t.db.prisma.securityEvent.count() };
    const fresh = await admin.console.directories.test(corp());
    expect(fresh).toMatchObject({
      ok: true,
      endpoint: { host: "127.0.0.1", tls: "ldaps" },
      steps: [{ step: "connect", ok: true }, { step: "bind", ok: true }, { step: "search", ok: true }, { step: "sample", ok: true }],
      found: { count: 2, more: false },
      sample: { login: "anna", dn: `uid=anna,ou=people,${BASE_DN}`, attributes: { given_name: "Anna", email: { value: "anna.petrova@example.org", vrf: true } } },
    });
    expect(fresh.sample!.externalId).toMatch(/^[0-9a-f-]{36}$/);
    // Over StartTLS, the search narrowed to one of the two.
    expect(await admin.console.directories.test(corp({ url: slapd.ldapUrl, userFilter: "(uid=boris)" }))).toMatchObject({ ok: true, endpoint: { tls: "starttls" }, found: { count: 1, more: false }, sample: { login: "boris", attributes: { given_name: "Boris" } } });
    expect(await t.db.prisma.directory.count()).toBe(0);

    await admin.console.directories.create(corp());
    expect(await admin.console.directories.test(corp({ bindPassword: "", caCert: undefined }))).toMatchObject({ ok: true, found: { count: 2 } });
    // The stored directory as it is, by its id alone.
    expect(await testConnection({ id: "corp" })).toMatchObject({ ok: true, found: { count: 2 } });
    expect(await admin.console.directories.test({ ...corp(), bindPassword: "", url: slapd.ldapUrl }).then(() => "tested", (e: { code: string }) => e.code)).toBe("BAD_REQUEST");

    const afterCreate = { users: await t.db.prisma.user.count(), events: await t.db.prisma.securityEvent.count(), row: await row() };
    expect(afterCreate.users).toBe(before.users);
    expect(afterCreate.events).toBe(before.events + 1);

    const wrong = await admin.console.directories.test(corp({ bindPassword: "not-the-reader-password" }));
    expect(wrong).toMatchObject({ ok: false, steps: [{ step: "connect", ok: true }, { step: "bind", ok: false, problem: "bad_credentials" }] });
    expect(JSON.stringify(wrong)).not.toContain("not-the-reader-password");

    for (const url of [slapd.ldapsUrl, slapd.ldapUrl]) {
      const otherCa = await admin.console.directories.test(corp({ url, caCert: slapd.otherCaPem }));
      expect(otherCa, url).toMatchObject({ ok: false, steps: [{ step: "connect", ok: false, problem: "tls_untrusted" }] });
    }
    const noBase = await admin.console.directories.test(corp({ baseDn: `ou=nobody,${BASE_DN}` }));
    expect(noBase).toMatchObject({ ok: false, steps: [{ step: "connect", ok: true }, { step: "bind", ok: true }, { step: "search", ok: false, problem: "no_such_object" }] });
    expect(await admin.console.directories.test(corp({ userFilter: "(uid=nobody)" }))).toMatchObject({ ok: false, found: { count: 0 }, steps: [{}, {}, { step: "search", ok: true }, { step: "sample", ok: false, problem: "no_entries" }] });
    expect(await admin.console.directories.test(corp({ loginAttribute: "employeeNumber" }))).toMatchObject({ ok: false, sample: { login: null }, steps: [{}, {}, {}, { step: "sample", ok: false, problem: "no_login" }] });
    expect(await fieldsOf(admin.console.directories.test(corp({ userFilter: "(uid=anna" })))).toEqual(["BAD_REQUEST", "userFilter"]);

    await slapd.stop();
    try {
      expect(await admin.console.directories.test(corp())).toMatchObject({ ok: false, steps: [{ step: "connect", ok: false, problem: "refused" }] });
    } finally {
      await slapd.start();
    }
    // Nothing of the tests was written: the directory as it was added, no account, no event.
    expect(await row()).toEqual(afterCreate.row);
    expect(await t.db.prisma.user.count()).toBe(before.users);
    expect(await t.db.prisma.securityEvent.count()).toBe(afterCreate.events);
  });

  it("deletes a directory with its links to entries, never its accounts", async () => {
    await admin.console.directories.create(corp());
    await importDocument({ users: [{ sub: "anna", attributes: { given_name: "Anna" } }] }, {});
    await t.db.prisma.directoryAccount.create({ data: { userId: "anna", directoryId: "corp", externalId: "entry-uuid-of-anna", dn: `uid=anna,ou=people,${BASE_DN}` } });
    await t.db.prisma.user.update({ where: { id: "anna" }, data: { ownedAttrs: ["given_name"] } });
    expect(await admin.console.directories.delete({ id: "corp" })).toEqual({ accounts: 1 });
    // What the directory kept is the service's again: editable, as no directory will change it any more.
    expect((await admin.console.users.get({ sub: "anna" })).ownedAttrs).toEqual([]);
    expect(await t.db.prisma.directory.count()).toBe(0);
    expect(await t.db.prisma.directoryAccount.count()).toBe(0);
    expect(await t.db.prisma.user.findUnique({ where: { id: "anna" }, select: { id: true, passwordHash: true } })).toEqual({ id: "anna", passwordHash: null });
    expect((await events("directory.deleted")).map((e) => e.params)).toEqual([{ directory: "corp", accounts: 1 }]);
    expect(await outcome(admin.console.directories.delete({ id: "corp" }))).toBe("NOT_FOUND directory.not_found");
  });
});
