import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sealFor } from "../../server/crypto/keys.ts";
import { findDirectory } from "../../server/directories/directories.repository.ts";
import { asService, DirectoryUnavailable, passwordMatches } from "../../server/directories/ldap-client.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { BASE_DN, person, READER, startSlapd, type TSlapd } from "../support/slapd.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The LDAP connection against a real slapd (TLS both ways, the CA checked), and the directories section of the import document.

let slapd: TSlapd;
beforeAll(async () => {
  slapd = await startSlapd(person({ uid: "anna", password: "anna-password", givenName: "Anna", sn: "Petrova" }));
});
afterAll(async () => slapd?.close());

const service = () => ({ id: "corp", url: slapd.ldapsUrl, startTls: true, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: sealFor("directory-secrets", READER.password) });
const uidOf = (url: string, over: Partial<ReturnType<typeof service>> = {}) =>
  asService({ ...service(), url, ...over }, async (client) => (await client.search(`ou=people,${BASE_DN}`, { filter: "(uid=anna)", attributes: ["uid"] })).searchEntries.map((e) => e.uid));
const failure = (p: Promise<unknown>) => p.then(() => "answered", (e: unknown) => (e instanceof DirectoryUnavailable ? "unavailable" : String(e)));

describe("the LDAP connection", () => {
  it("searches as the service over ldaps:// and over ldap:// with StartTLS, the certificate checked against the directory's CA", async () => {
    expect(await uidOf(slapd.ldapsUrl)).toEqual(["anna"]);
    expect(await uidOf(slapd.ldapUrl)).toEqual(["anna"]);
    // Another CA: the TLS handshake fails either way, and no bind (no password) was sent.
    expect(await failure(uidOf(slapd.ldapsUrl, { caCert: slapd.otherCaPem }))).toBe("unavailable");
    expect(await failure(uidOf(slapd.ldapUrl, { caCert: slapd.otherCaPem }))).toBe("unavailable");
    // Plain ldap:// on loopback, when StartTLS is turned off on purpose.
    expect(await uidOf(slapd.ldapUrl, { startTls: false })).toEqual(["anna"]);
    // The service's own bind refused is the directory being unusable, not a person's wrong password.
    expect(await failure(uidOf(slapd.ldapsUrl, { bindPassword: sealFor("directory-secrets", "wrong") }))).toBe("unavailable");
  });

  it("checks a person's password by a bind, and never sends an empty one (LDAP would take it as anonymous)", async () => {
    const dn = `uid=anna,ou=people,${BASE_DN}`;
    expect(await passwordMatches(service(), dn, "anna-password")).toBe(true);
    expect(await passwordMatches(service(), dn, "wrong-password")).toBe(false);
    expect(await passwordMatches(service(), dn, "")).toBe(false);
    expect(await passwordMatches(service(), `uid=nobody,ou=people,${BASE_DN}`, "anna-password")).toBe(false);
  });

  it("is unavailable, not wrong, while the directory is stopped", async () => {
    await slapd.stop();
    try {
      expect(await failure(uidOf(slapd.ldapsUrl))).toBe("unavailable");
      expect(await failure(passwordMatches(service(), `uid=anna,ou=people,${BASE_DN}`, "anna-password"))).toBe("unavailable");
    } finally {
      await slapd.start();
    }
  });
});

describe.each(DB_KINDS)("the directories section of the import on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  const corp = () => ({ id: "corp", name: "Corporate directory", url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password, baseDn: `ou=people,${BASE_DN}`, attributes: [{ from: "mail", to: "email", transform: "email" }] });

  it("stores a directory with its bind password sealed, and a second import changes nothing", async () => {
    expect((await importDocument({ directories: [corp()] }, {})).directories).toEqual({ created: ["corp"], updated: [], unchanged: [] });
    const row = await t.db.prisma.directory.findUniqueOrThrow({ where: { id: "corp" } });
    expect(row).toMatchObject({ userFilter: "(objectClass=inetOrgPerson)", loginAttribute: "uid", idAttribute: "entryUUID", mode: "on_demand", startTls: true });
    expect(row.bindPassword).not.toContain(READER.password);
    expect(row.bindPassword).toMatch(/^v2\./);
    expect((await importDocument({ directories: [corp()] }, {})).directories).toEqual({ created: [], updated: [], unchanged: ["corp"] });
    expect((await importDocument({ directories: [{ ...corp(), bindPassword: "rotated-password" }] }, {})).directories).toEqual({ created: [], updated: ["corp"], unchanged: [] });
    expect((await findDirectory("corp"))!.attributeMap).toEqual([{ from: "mail", to: "email", transform: "email", verified: false }]);
  });

  it("refuses a URL that would send passwords in the clear, a filter that is not one, and a CA that is not PEM, naming where", async () => {
    const itemsOf = (doc: unknown) => importDocument(doc, {}).then(() => [], (e: AppError) => (e.details.items ?? []).map((i) => `${i.pos}: ${i.desc}`));
    expect(await itemsOf({ directories: [{ ...corp(), url: "ldap://dc1.corp.example", startTls: false }] })).toEqual([
      "$.directories[0].url: plain ldap:// (without StartTLS) only to a loopback address: people's passwords travel in the bind",
    ]);
    expect((await itemsOf({ directories: [{ ...corp(), userFilter: "(uid=anna" }] }))[0]).toMatch(/^\$\.directories\[0\]\.userFilter: is not an LDAP filter/);
    expect(await itemsOf({ directories: [{ ...corp(), caCert: "not a certificate" }] })).toEqual(["$.directories[0].caCert: must be PEM certificates"]);
    expect(await itemsOf({ directories: [{ ...corp(), loginAttribute: "uid)(x" }] })).toEqual(["$.directories[0].loginAttribute: an LDAP attribute name"]);
    expect(await t.db.prisma.directory.count()).toBe(0);
  });

  it("stores a groups block with its defaults, refuses one that cannot be used naming the field, and takes its removal", async () => {
    const groups = { baseDn: `ou=groups,${BASE_DN}`, nesting: "expand", only: ["engineering"] };
    expect((await importDocument({ directories: [{ ...corp(), groups }] }, {})).directories).toEqual({ created: ["corp"], updated: [], unchanged: [] });
    expect((await findDirectory("corp"))!.groupMap).toEqual({ ...groups, filter: "(objectClass=groupOfNames)", nameAttribute: "cn", memberAttribute: "member", profile: "directory_groups" });
    expect((await importDocument({ directories: [{ ...corp(), groups }] }, {})).directories).toEqual({ created: [], updated: [], unchanged: ["corp"] });

    const itemsOf = (doc: unknown) => importDocument(doc, {}).then(() => [], (e: AppError) => (e.details.items ?? []).map((i) => i.pos));
    expect(await itemsOf({ directories: [{ ...corp(), groups: { ...groups, filter: "(cn=x" } }] })).toEqual(["$.directories[0].groups.filter"]);
    expect(await itemsOf({ directories: [{ ...corp(), groups: { ...groups, idPrefix: "corp:" } }] })).toEqual(["$.directories[0].groups.idPrefix"]);
    expect(await itemsOf({ directories: [{ ...corp(), groups: { ...groups, nesting: "deep" } }] })).toEqual(["$.directories[0].groups.nesting"]);
    expect(await itemsOf({ directories: [{ ...corp(), groups: { nesting: "none" } }] })).toEqual(["$.directories[0].groups.baseDn"]);

    expect((await importDocument({ directories: [corp()] }, {})).directories).toEqual({ created: [], updated: ["corp"], unchanged: [] });
    expect((await findDirectory("corp"))!.groupMap).toBeNull();
  });
});
