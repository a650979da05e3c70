import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { updateClient } from "../../server/clients/clients.service.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument, importFile } from "../../server/import/import.service.ts";
import { unsealClientSecret } from "../../server/federation/provider-secrets.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";
import { fixture, IMPORT_FIXTURE } from "../support/fixtures.ts";

describe.each(DB_KINDS)("declarative import on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  const rows = () =>
    t.db.prisma.client.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, secretHash: true, restPasswordHash: true, scopes: true, updatedAt: true, enabled: true } });

  it("creates clients with hashed secrets, and a second import changes nothing", async () => {
    const first = await importFile(IMPORT_FIXTURE, {});
    expect(first.clients.created.sort()).toEqual(["groups-app", "limited-app", "limits-app", "mobile-app", "no-scope-app", "otp-app", "post-app", "rights-app", "rp-spa", "rp-web", "svc-app", "users-app"]);
    expect(first.groupProfiles.created).toEqual(["orgs", "departments"]);
    expect(first.groups.created).toEqual(["org-fixture", "dep-fixture"]);
    expect(first.attributes.created).toEqual(["employee_id", "birthdate"]);
    expect(first.users.created).toEqual(["ivanov", "ivanova", "petrov"]);
    const before = await rows();
    for (const r of before.filter((c) => c.id !== "rp-spa")) {
      expect(r.secretHash).toMatch(/^\$argon2id\$/);
      expect(r.secretHash).not.toContain(fixture.clients.find((c) => c.id === r.id)!.secret);
    }
    expect(before.find((r) => r.id === "svc-app")!.restPasswordHash).toMatch(/^\$argon2id\$/);

    const users = () => t.db.prisma.user.findMany({ where: { login: null }, orderBy: { id: "asc" }, select: { id: true, attrs: true, passwordHash: true, instanceId: true } });
    const usersBefore = await users();
    expect(usersBefore.find((u) => u.id === "ivanov")!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(usersBefore)).not.toContain("ivanov-password");

    const second = await importFile(IMPORT_FIXTURE, {});
    expect(second.clients).toEqual({ created: [], updated: [], unchanged: ["svc-app", "post-app", "no-scope-app", "users-app", "limited-app", "rp-web", "rp-spa", "mobile-app", "limits-app", "otp-app", "rights-app", "groups-app"] });
    expect(second.groupProfiles).toEqual({ created: [], updated: [], unchanged: ["orgs", "departments"] });
    expect(second.groups).toEqual({ created: [], updated: [], unchanged: ["org-fixture", "dep-fixture"] });
    expect(second.attributes).toEqual({ created: [], updated: [], unchanged: ["employee_id", "birthdate"] });
    expect(second.users).toEqual({ created: [], updated: [], unchanged: ["ivanov", "ivanova", "petrov"] });
    expect(await rows()).toEqual(before);
    expect(await users()).toEqual(usersBefore);
    const selections = await t.db.prisma.clientAttributeSelection.findMany({ orderBy: { scope: "asc" } });
    expect(selections).toEqual([
      { clientId: "limited-app", scope: "idp_api_sys_users", attributes: ["sub", "family_name", "email"] },
      { clientId: "limited-app", scope: "idp_api_sys_users_chg", attributes: ["family_name"] },
    ]);
  });

  it("updates what changed and keeps the console's enabled flag", async () => {
    await importFile(IMPORT_FIXTURE, {});
    await updateClient("post-app", { name: "Client using client_secret_post", scopes: ["idp_api_sys_users"], enabled: false }, {});
    const doc = structuredClone(fixture);
    doc.clients[1]!.scopes = ["idp_api_sys_users", "idp_api_sys_usec"];
    const result = await importDocument(doc, {});
    expect(result.clients.updated).toEqual(["post-app"]);
    const post = (await rows()).find((r) => r.id === "post-app")!;
    expect(post.scopes).toEqual(["idp_api_sys_users", "idp_api_sys_usec"]);
    expect(post.enabled).toBe(false);
  });

  it("refuses an invalid document as a whole, naming the JSON path of each problem", async () => {
    const doc = {
      clients: [
        { id: "fine-app", name: "Fine", secret: "fine-secret-1", scopes: ["a"] },
        { id: "bad id", name: "", secret: "short", scopes: "idp_api_sys_users", extra: 1 },
        { id: "fine-app", name: "Again", secret: "fine-secret-1", scopes: ["a b"] },
      ],
      userz: [],
    };
    const error = await importDocument(doc, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    const positions = (error as AppError).details.items!.map((i) => i.pos);
    expect(positions).toEqual(
      expect.arrayContaining(["$", "$.clients[1].id", "$.clients[1].name", "$.clients[1].secret", "$.clients[1].scopes", "$.clients[1]", "$.clients[2].scopes[0]"]),
    );
    expect(await rows()).toEqual([]);
  });

  it("keeps an imported bcrypt hash and refuses bad accounts, aliases and selections whole", async () => {
    const bcrypt = "$2b$10$" + "a".repeat(53);
    const ok = await importDocument({ users: [{ sub: "legacy", attributes: { family_name: "Старый" }, passwordHash: bcrypt }] }, {});
    expect(ok.users.created).toEqual(["legacy"]);
    expect((await t.db.prisma.user.findUnique({ where: { id: "legacy" }, select: { passwordHash: true } }))!.passwordHash).toBe(bcrypt);
    const bad = {
      attributes: [{ name: "nick", type: "string", aliases: ["surname"] }],
      clients: [{ id: "sel-app", name: "S", secret: "sel-secret-1", scopes: [], attributes: { idp_api_user: ["nothing_such"] } }],
      users: [{ sub: "u2", attributes: { email: { value: "not-an-email", vrf: true } } }],
    };
    const error = await importDocument(bad, {}).then(() => undefined, (e: unknown) => e);
    expect((error as AppError).details.items!.map((i) => i.pos)).toEqual(["$.attributes[0].aliases"]);
    bad.attributes = [];
    const error2 = await importDocument(bad, {}).then(() => undefined, (e: unknown) => e);
    expect((error2 as AppError).details.items!.map((i) => i.pos)).toEqual(["$.clients[0].attributes.idp_api_user"]);
    bad.clients = [];
    const error3 = await importDocument(bad, {}).then(() => undefined, (e: unknown) => e);
    expect((error3 as AppError).details.items!.map((i) => i.pos)).toEqual(["$.users[0].attributes.email"]);
    expect(await t.db.prisma.user.count({ where: { id: "u2" } })).toBe(0);
    expect(await rows()).toEqual([]);
  });

  it("imports a public client without a secret, with its grant types, logout URIs and lifetimes", async () => {
    await importFile(IMPORT_FIXTURE, {});
    const spa = await t.db.prisma.client.findUnique({ where: { id: "rp-spa" } });
    expect(spa).toMatchObject({
      type: "public",
      firstParty: true,
      secretHash: null,
      restPasswordHash: null,
      grantTypes: ["authorization_code", "refresh_token"],
      postLogoutRedirectUris: ["https://spa.example.test/"],
      accessTokenTtl: 300,
      refreshTokenTtl: null,
      idTokenTtl: 600,
    });
    const web = await t.db.prisma.client.findUnique({ where: { id: "rp-web" } });
    expect(web).toMatchObject({ type: "confidential", firstParty: false, grantTypes: ["authorization_code", "refresh_token"] });
    // Clients described before these fields existed keep what they could do.
    expect((await t.db.prisma.client.findUnique({ where: { id: "svc-app" } }))!.grantTypes).toEqual(["client_credentials"]);
  });

  it("refuses clients whose type, credentials, grant types and redirect URIs do not fit together", async () => {
    const doc = {
      clients: [
        { id: "pub-secret", name: "P", type: "public", secret: "a-secret-1", restPassword: "rest-pass-1", scopes: ["x"], grantTypes: ["client_credentials"] },
        { id: "conf-nosecret", name: "C", scopes: [] },
        { id: "code-nouri", name: "U", secret: "a-secret-1", scopes: [], grantTypes: ["authorization_code"] },
        { id: "refresh-only", name: "R", secret: "a-secret-1", scopes: [], grantTypes: ["refresh_token"], tokenLifetimes: { accessToken: 5 } },
      ],
    };
    const error = await importDocument(doc, {}).then(() => undefined, (e: unknown) => e);
    expect((error as AppError).details.items!.map((i) => i.pos).sort()).toEqual([
      "$.clients[0].grantTypes",
      "$.clients[0].restPassword",
      "$.clients[0].scopes",
      "$.clients[0].secret",
      "$.clients[1].secret",
      "$.clients[2].redirectUris",
      "$.clients[3].grantTypes",
      "$.clients[3].tokenLifetimes.accessToken",
    ]);
    expect(await rows()).toEqual([]);
  });

  it("refuses duplicate ids and a file that is not JSON", async () => {
    const dup = { clients: [fixture.clients[1], fixture.clients[1]] };
    await expect(importDocument(dup, {})).rejects.toMatchObject({ details: { items: [{ pos: "$.clients[1].id", desc: 'duplicate id "post-app"' }] } });
    await expect(importFile("/nonexistent/file.json", {})).rejects.toMatchObject({ details: { items: [{ pos: "$", error: "unreadable" }] } });
    expect(await rows()).toEqual([]);
  });

  it("imports group profiles and groups with their members; members listed become the whole membership; bad groups are refused whole", async () => {
    await importFile(IMPORT_FIXTURE, {});
    const groups = () => t.db.prisma.group.findMany({ orderBy: { id: "asc" }, select: { id: true, profile: true, attrs: true, instanceId: true, members: { select: { userId: true }, orderBy: { userId: "asc" } } } });
    const before = await groups();
    expect(before.map((g) => [g.id, g.profile, g.members.map((m) => m.userId)])).toEqual([
      ["dep-fixture", "departments", []],
      ["org-fixture", "orgs", ["ivanov", "petrov"]],
    ]);
    expect(before[1]!.attrs).toEqual({ name: "Рога и копыта", inn: "7701234567", tags: ["fixture"] });
    const added = await t.db.prisma.securityEvent.findMany({ where: { type: "group.member_added" }, orderBy: { subject: "asc" }, select: { subject: true, params: true } });
    expect(added.map((e) => e.subject)).toEqual(["ivanov", "petrov"]);

    const profiles = structuredClone((fixture as unknown as { groupProfiles: { description: { en: string } }[] }).groupProfiles);
    profiles[0]!.description.en = "Companies";
    const changed = await importDocument({ groupProfiles: profiles, groups: [{ id: "org-fixture", profile: "orgs", attributes: { name: "Horns and hooves" }, members: ["ivanova"] }] }, {});
    expect(changed.groupProfiles).toEqual({ created: [], updated: ["orgs"], unchanged: ["departments"] });
    expect(changed.groups).toEqual({ created: [], updated: ["org-fixture"], unchanged: [] });
    const after = await groups();
    expect(after[1]!.attrs).toEqual({ name: "Horns and hooves" });
    expect(after[1]!.instanceId).not.toBe(before[1]!.instanceId);
    expect(after[1]!.members.map((m) => m.userId)).toEqual(["ivanova"]);
    expect(await t.db.prisma.securityEvent.count({ where: { type: "group.member_removed" } })).toBe(2);

    const bad = async (groupsSection: unknown[], pos: string) => {
      const e = await importDocument({ groups: groupsSection }, {}).then(() => undefined, (x: unknown) => x);
      expect((e as AppError).details.items!.map((i) => i.pos), JSON.stringify(groupsSection)).toContain(pos);
    };
    await bad([{ id: "g-new", profile: "nope" }], "$.groups[0].profile");
    await bad([{ id: "g-new", profile: "orgs", attributes: { name: "A", bogus: 1 } }], "$.groups[0].attributes.bogus");
    await bad([{ id: "g-new", profile: "orgs", attributes: {} }], "$.groups[0].attributes.name");
    await bad([{ id: "g-new", profile: "orgs", attributes: { name: "A" }, members: ["ivanov", "nobody-here"] }], "$.groups[0].members");
    await bad([{ id: "dep-fixture", profile: "orgs", attributes: { name: "A" } }], "$.groups[0].profile");
    await bad([{ id: "g-new", profile: "orgs", attributes: { name: "A", inn: "7701234567" } }, { id: "g-new2", profile: "orgs", attributes: { name: "B", inn: "7701234567" } }], "$.groups[1].attributes.inn");
    await bad([{ id: "bad id", profile: "orgs" }], "$.groups[0].id");
    expect(await groups()).toEqual(after);
  });

  it("imports providers with the client secret sealed, idempotently; an absent secret keeps the stored one", async () => {
    const providers = () => t.db.prisma.federationProvider.findMany({ orderBy: { fpName: "asc" } });
    const first = await importFile(IMPORT_FIXTURE, {});
    expect(first.providers).toEqual({ created: ["oidc:corp", "oauth2:social"], updated: [], unchanged: [] });
    const stored = await providers();
    const corp = stored.find((p) => p.fpName === "corp")!;
    expect(corp).toMatchObject({ fpType: "oidc", clientId: "idp-at-corp", scopes: ["openid", "profile", "email"], sidClaim: "sub", offeredAtSignIn: true, minTokenLifeS: 30 });
    expect(stored.find((p) => p.fpName === "social")).toMatchObject({ sidClaim: "id", userNameClaim: "login", rememberTokens: true, minTokenLifeS: 60 });
    expect(JSON.stringify(stored)).not.toContain("client-secret-plain");
    expect(corp.clientSecret).toMatch(/^v2\./);
    expect(unsealClientSecret(corp.clientSecret!)).toBe("corp-client-secret-plain");

    const second = await importFile(IMPORT_FIXTURE, {});
    expect(second.providers).toEqual({ created: [], updated: [], unchanged: ["oidc:corp", "oauth2:social"] });
    expect(await providers()).toEqual(stored);

    const doc = structuredClone(fixture) as unknown as { providers: Record<string, unknown>[] };
    doc.providers[0]!.clientSecret = "a-new-secret";
    delete doc.providers[1]!.clientSecret;
    const third = await importDocument(doc, {});
    expect(third.providers).toEqual({ created: [], updated: ["oidc:corp"], unchanged: ["oauth2:social"] });
    const after = await providers();
    expect(unsealClientSecret(after.find((p) => p.fpName === "corp")!.clientSecret!)).toBe("a-new-secret");
    expect(after.find((p) => p.fpName === "social")!.clientSecret).toBe(stored.find((p) => p.fpName === "social")!.clientSecret);
  });

  it("refuses providers that lack their endpoints, use http off loopback or repeat a name", async () => {
    const base = { clientId: "c" };
    const doc = {
      providers: [
        { ...base, fpType: "oauth2", fpName: "no-endpoints" },
        { ...base, fpType: "oidc", fpName: "plain-http", discoveryUrl: "http://idp.example.test" },
        { ...base, fpType: "oidc", fpName: "local", discoveryUrl: "http://127.0.0.1:9/" },
        { ...base, fpType: "saml", fpName: "bad name!", discoveryUrl: "https://idp.example.test" },
      ],
    };
    const error = await importDocument(doc, {}).then(() => undefined, (e: unknown) => e);
    expect((error as AppError).details.items!.map((i) => i.pos).sort()).toEqual([
      "$.providers[0].authorizationEndpoint",
      "$.providers[0].tokenEndpoint",
      "$.providers[0].userinfoEndpoint",
      "$.providers[1].discoveryUrl",
      "$.providers[3].fpName",
      "$.providers[3].fpType",
    ]);
    const twice = { ...base, fpType: "oidc", fpName: "local", discoveryUrl: "http://127.0.0.1:9/" };
    await expect(importDocument({ providers: [twice, twice] }, {})).rejects.toMatchObject({ details: { items: [{ pos: "$.providers[1].fpName", desc: 'duplicate provider "oidc:local"' }] } });
    expect(await t.db.prisma.federationProvider.count()).toBe(0);
  });
});
