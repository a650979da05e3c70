import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertOf, Browser } from "../support/browser.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { api, systemToken } from "../support/http.ts";
import { IVANOV, webAuthorization, webTokens } from "../support/oidc.ts";
import { serverOfItsOwn } from "../support/own-server.ts";
import { BASE_DN, groupDn, groupOfNames, person, personDn, READER, startSlapd, type TSlapd } from "../support/slapd.ts";

/*
 * Sign-in of a directory's people against a real OpenLDAP server (slapd, started by the test with
 * TLS from a test CA and the ppolicy overlay): found at their first sign-in and made an account from
 * their entry, their password checked by a bind every time and never stored; an entry disabled or
 * locked there, and the directory stopped, each said plainly; local accounts unaffected. Their
 * directory groups (nested ones expanded) become their groups here at each sign-in.
 */

const ANNA = { uid: "anna", password: "anna-directory-password", givenName: "Anna", sn: "Petrova", mail: "Anna.Petrova@Example.org", mobile: "+7 (900) 555-01-02" };
const BORIS = { uid: "boris", password: "boris-directory-password", givenName: "Boris", sn: "Sokolov", mail: "boris@example.org" };
const VERA = { uid: "vera", password: "vera-directory-password", givenName: "Vera", sn: "Orlova" };
// An entry that claims a local account's confirmed address.
const KOSTYA = { uid: "kostya", password: "kostya-directory-password", givenName: "Kostya", sn: "Lisin", mail: IVANOV.email };

// Dima signs in first in the groups' test: engineering ⊃ backend ⊃ dima, and sales ⊃ dima directly.
const DIMA = { uid: "dima", password: "dima-directory-password", givenName: "Dima", sn: "Volkov" };
const GROUPS = [
  groupOfNames("engineering", [groupDn("backend")]),
  groupOfNames("backend", [personDn("dima")]),
  groupOfNames("sales", [personDn("dima"), personDn("boris")]),
].join("");

const env: Record<string, string> = {};
let slapd: TSlapd;

beforeAll(async () => {
  slapd = await startSlapd([ANNA, BORIS, VERA, KOSTYA, DIMA].map(person).join("") + GROUPS);
  const doc = JSON.parse(readFileSync(IMPORT_FIXTURE, "utf8"));
  doc.directories = [
    {
      id: "corp",
      name: "Corporate directory",
      url: slapd.ldapsUrl,
      caCert: slapd.caPem,
      bindDn: READER.dn,
      bindPassword: READER.password,
      baseDn: `ou=people,${BASE_DN}`,
      userFilter: "(objectClass=inetOrgPerson)",
      loginAttribute: "uid",
      idAttribute: "entryUUID",
      disabledFilter: "(pwdAccountLockedTime=*)",
      attributes: [
        { from: "givenName", to: "given_name" },
        { from: "sn", to: "family_name" },
        { from: "mail", to: "email", transform: "email", verified: true },
        { from: "mobile", to: "phone_number", transform: "phone" },
      ],
      groups: { baseDn: `ou=groups,${BASE_DN}`, nesting: "expand" },
    },
  ];
  const file = path.join(mkdtempSync(path.join(tmpdir(), "directory-import-")), "import.json");
  writeFileSync(file, JSON.stringify(doc));
  env.IDP_IMPORT = file;
});
afterAll(async () => slapd?.close());

// After the hook above: the server reads env.IDP_IMPORT when its own beforeAll runs.
const server = serverOfItsOwn("directory", env);

type TEvent = { type: string; params: Record<string, unknown> };
async function events(sub: string): Promise<TEvent[]> {
  const token = await systemToken("users-app", "idp_api_sys_uaud", server().baseUrl);
  return (await api("GET", `/api/v3/users/${sub}/audit`, { token, origin: server().baseUrl })).body.events;
}

async function readUser(sub: string) {
  const token = await systemToken("users-app", "idp_api_sys_users", server().baseUrl);
  return api("GET", `/api/v3/users/${sub}`, { token, origin: server().baseUrl });
}

/** The sign-in page's answer to a login and password (a fresh browser each time). */
async function signInPage(identifier: string, password: string) {
  const browser = new Browser({ "accept-language": "en" }, server().baseUrl);
  const login = await browser.open(webAuthorization({}, server().baseUrl).url);
  return browser.submit(login, { identifier, password });
}

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

describe("on-demand sign-in against the directory", () => {
  it("signs in a person the service has never seen, makes their account from their entry, and stores no password", async () => {
    expect((await readUser(ANNA.uid)).status).toBe(404);
    const { tokens } = await webTokens(new Browser({}, server().baseUrl), {}, { identifier: ANNA.uid, password: ANNA.password });
    expect(claims(tokens.id_token).sub).toBe("anna");
    const user = await readUser("anna");
    expect(user.body).toMatchObject({ sub: "anna", given_name: "Anna", family_name: "Petrova", email: { value: "anna.petrova@example.org", vrf: true }, phone_number: { value: "79005550102", vrf: false } });
    const types = (await events("anna")).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["user.created", "user.signed_in"]));
    expect((await events("anna")).find((e) => e.type === "user.created")!.params).toMatchObject({ by: "directory", directory: "corp" });

    // The directory decides: a new password there works here at once, the old one no longer does.
    slapd.modify(`dn: uid=anna,ou=people,${BASE_DN}\nchangetype: modify\nreplace: userPassword\nuserPassword: anna-new-password\n`);
    expect((await signInPage("anna", ANNA.password)).status).toBe(400);
    expect((await signInPage("anna", "anna-new-password")).status).toBe(303);
    // Its attributes follow the entry at each sign-in.
    slapd.modify(`dn: uid=anna,ou=people,${BASE_DN}\nchangetype: modify\nreplace: givenName\ngivenName: Anya\n`);
    expect((await signInPage("anna", "anna-new-password")).status).toBe(303);
    expect((await readUser("anna")).body.given_name).toBe("Anya");
  });

  it("keeps what the directory owns read-only to everyone else, and follows the entry when it drops a value", async () => {
    const origin = server().baseUrl;
    const change = async (instanceId: string, body: unknown) =>
      api("POST", `/api/v3/users/${encodeURIComponent(instanceId)}`, { token: await systemToken("users-app", "idp_api_sys_users_chg", origin), body, origin });
    const before = (await readUser("anna")).body;
    expect(before.meta.unmodifiable).toEqual(expect.arrayContaining(["sub", "given_name", "family_name", "email", "phone_number"]));
    expect(before.meta.unmodifiable).not.toContain("middle_name");

    for (const body of [{ given_name: "Hacked" }, { family_name: null }, { email: { value: "anna@elsewhere.example", vrf: false } }, { email: { value: "anna@elsewhere.example", vrf: true } }]) {
      const refused = await change(before.meta.instanceId, body);
      expect(refused.status, refused.text).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(/kept in the organisation's directory/);
    }
    const unchanged = (await readUser("anna")).body;
    expect(unchanged).toMatchObject({ given_name: "Anya", family_name: "Petrova", email: { value: "anna.petrova@example.org", vrf: true } });
    expect(unchanged.meta.instanceId).toBe(before.meta.instanceId);
    // v1 says the same under its own names.
    const v1 = await api("GET", `/api/v1/users/${encodeURIComponent(before.meta.instanceId)}`, { basic: ["users-app", "users-rest-password"], origin });
    expect(v1.status).toBe(200);
    expect(v1.body.unmodifiable.length).toBeGreaterThanOrEqual(5);
    // What the directory does not keep stays the service's to change.
    const own = await change(before.meta.instanceId, { middle_name: "Ivanovna" });
    expect(own.status, own.text).toBe(200);

    // The entry loses its mobile number: so does the account, at the next sign-in.
    slapd.modify(`dn: uid=anna,ou=people,${BASE_DN}\nchangetype: modify\ndelete: mobile\n`);
    expect((await signInPage("anna", "anna-new-password")).status).toBe(303);
    const after = (await readUser("anna")).body;
    expect(after.phone_number).toBeUndefined();
    expect(after.middle_name).toBe("Ivanovna");
  });

  it("puts a person in their directory groups at their first sign-in, nested ones included, and follows the directory at the next", async () => {
    const groupsOf = async (sub: string) => {
      const token = await systemToken("groups-app", "idp_api_sys_groups", server().baseUrl);
      const r = await api("GET", `/api/v3/users/${sub}/grps`, { token, origin: server().baseUrl });
      expect(r.status).toBe(200);
      return r.body as { id: string; profile: string; name?: string }[];
    };
    expect((await signInPage(DIMA.uid, DIMA.password)).url).toMatch(/\/consent\?flow=/);
    expect(await groupsOf("dima")).toEqual([
      expect.objectContaining({ id: "corp.backend", profile: "directory_groups", name: "backend" }),
      expect.objectContaining({ id: "corp.engineering", profile: "directory_groups", name: "engineering" }),
      expect.objectContaining({ id: "corp.sales", profile: "directory_groups", name: "sales" }),
    ]);
    expect((await events("dima")).find((e) => e.type === "group.member_added" && e.params.group === "corp.backend")!.params).toMatchObject({ by: "directory", directory: "corp" });

    // Out of sales there: out of it here at the next sign-in, and still in the others.
    slapd.modify(`dn: ${groupDn("sales")}\nchangetype: modify\ndelete: member\nmember: ${personDn("dima")}\n`);
    await signInPage(DIMA.uid, DIMA.password);
    expect((await groupsOf("dima")).map((g) => g.id)).toEqual(["corp.backend", "corp.engineering"]);
  });

  it("sends no recovery code to a directory's person: their password is changed in the directory", async () => {
    const browser = new Browser({ "accept-language": "en" }, server().baseUrl);
    const login = await browser.open(webAuthorization({}, server().baseUrl).url);
    const link = /<a href="([^"]*\/login\/recover\?[^"]*)">/.exec(login.text)?.[1];
    expect(link, "the sign-in page links to recovery").toBeTruthy();
    const page = await browser.open(new URL(link!.replace(/&amp;/g, "&"), login.url).toString());
    const answered = await browser.submit(page, { address: "anna.petrova@example.org" });
    // The same page as for an address nobody has: nothing tells the account exists.
    expect(answered.status).toBe(200);
    expect((await events("anna")).map((e) => e.type)).not.toContain("user.recovery_requested");
  });

  it("refuses a wrong password and an unknown login alike, and leaves local accounts to their own passwords", async () => {
    for (const [login, password] of [["boris", "not-his-password"], ["nobody", "whatever-password"], ["boris", ""]] as const) {
      const page = await signInPage(login, password);
      expect(page.status).toBe(400);
      expect(alertOf(page.text)).toMatch(/Wrong username or password|Enter your username and password/);
    }
    const { tokens } = await webTokens(new Browser({}, server().baseUrl), {}, { identifier: IVANOV.sub, password: IVANOV.password });
    expect(claims(tokens.id_token).sub).toBe(IVANOV.sub);
  });

  it("never takes a local account's address for a directory's person: the account is made without it", async () => {
    // Signed in: the application's consent page asks next.
    expect((await signInPage(KOSTYA.uid, KOSTYA.password)).url).toMatch(/\/consent\?flow=/);
    const kostya = (await readUser("kostya")).body;
    expect(kostya).toMatchObject({ sub: "kostya", given_name: "Kostya" });
    expect(kostya.email).toBeUndefined();
    expect((await readUser(IVANOV.sub)).body.email).toEqual({ value: IVANOV.email, vrf: true });
  });

  it("says plainly that an entry disabled or locked in the directory cannot sign in", async () => {
    // An administrator locks Boris there (ppolicy's permanent lock).
    slapd.modify(`dn: uid=boris,ou=people,${BASE_DN}\nchangetype: modify\nadd: pwdAccountLockedTime\npwdAccountLockedTime: 000001010000Z\n`);
    const page = await signInPage("boris", BORIS.password);
    expect(page.status).toBe(403);
    expect(alertOf(page.text)).toBe("This account is disabled or locked in your organisation's directory. Contact your administrator.");

    // Vera locks herself out there with three wrong passwords (the directory's own lockout); then even the right one is refused, saying why.
    for (let i = 0; i < 3; i++) expect((await signInPage("vera", `wrong-${i}`)).status).toBe(400);
    const vera = await signInPage("vera", VERA.password);
    expect(vera.status).toBe(403);
    expect(alertOf(vera.text)).toMatch(/disabled or locked in your organisation's directory/);
  });

  it("says the directory cannot be reached while it is stopped, without counting the attempt, and local accounts still sign in", async () => {
    await slapd.stop();
    try {
      const page = await signInPage("anna", "anna-new-password");
      expect(page.status).toBe(503);
      expect(alertOf(page.text)).toBe("Your organisation's directory, which checks this password, cannot be reached just now. Try again in a few minutes.");
      const failed = (await events("anna")).find((e) => e.type === "user.sign_in_failed")!;
      expect(failed.params).toMatchObject({ reason: "directory_unavailable", directory: "corp" });
      // Ready all the same: only the directory's people are affected.
      const ready = await fetch(`${server().baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ok", directories: { corp: "degraded" } });
      const { tokens } = await webTokens(new Browser({}, server().baseUrl), {}, { identifier: IVANOV.sub, password: IVANOV.password });
      expect(claims(tokens.id_token).sub).toBe(IVANOV.sub);
    } finally {
      await slapd.start();
    }
    expect((await signInPage("anna", "anna-new-password")).status).toBe(303);
    expect(await (await fetch(`${server().baseUrl}/health/ready`)).json()).toEqual({ status: "ok", directories: { corp: "ok" } });
  });
});

describe("secrets", () => {
  it("writes neither the service's bind password nor anybody's directory password in the log", () => {
    const log = server().output();
    expect(log).toContain("directory unavailable");
    for (const secret of [READER.password, ANNA.password, "anna-new-password", BORIS.password, VERA.password, KOSTYA.password]) expect(log).not.toContain(secret);
  });
});
