import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { createProvider, deleteProvider, unbindUserAccount, updateProvider, userBindings } from "../../server/federation/federation-console.service.ts";
import { bindExternalAccount } from "../../server/federation/bindings.service.ts";
import { ZProviderInput, type TProviderInput } from "../../server/federation/federation.schemas.ts";
import { unsealClientSecret } from "../../server/federation/provider-secrets.ts";
import { listProviders } from "../../server/federation/providers.service.ts";
import { createAccount, deleteAccount, readAccount } from "../../server/users/users.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const admin = { subject: "test-admin" };
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;
const provider = (over: Partial<TProviderInput> = {}) =>
  ZProviderInput.parse({ fpType: "oidc", fpName: unique("op-"), clientId: "idp", clientSecret: "plain-secret-value", discoveryUrl: "https://op.example.test", ...over });

async function newUser(): Promise<string> {
  return (await inTransaction((tx) => createAccount({ attrs: { sub: unique("f-") }, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx))).id;
}

async function code(p: Promise<unknown>): Promise<{ code: string; params?: Record<string, unknown> }> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return { code: (e as AppError).code, params: (e as AppError).details.params };
}

describe.each(DB_KINDS)("external providers on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());

  it("stores the client secret sealed, never shows it, and keeps it when an edit sends none", async () => {
    const p = provider();
    const view = await createProvider(p, admin);
    expect(view).toMatchObject({ fpType: "oidc", fpName: p.fpName, hasClientSecret: true, bindings: 0, sidClaim: "sub", minTokenLifeS: 30 });
    expect(JSON.stringify(view)).not.toContain("plain-secret-value");
    expect("clientSecret" in view).toBe(false);
    const row = await t.db.prisma.federationProvider.findUniqueOrThrow({ where: { fpType_fpName: { fpType: "oidc", fpName: p.fpName } } });
    expect(row.clientSecret).not.toContain("plain-secret-value");
    expect(unsealClientSecret(row.clientSecret!)).toBe("plain-secret-value");

    await updateProvider({ ...p, clientSecret: undefined, scopes: ["openid", "email"] }, admin);
    const kept = await t.db.prisma.federationProvider.findUniqueOrThrow({ where: { fpType_fpName: { fpType: "oidc", fpName: p.fpName } } });
    expect(kept.clientSecret).toBe(row.clientSecret);
    expect(kept.scopes).toEqual(["openid", "email"]);
    await updateProvider({ ...p, clientSecret: "next-secret-value" }, admin);
    const replaced = await t.db.prisma.federationProvider.findUniqueOrThrow({ where: { fpType_fpName: { fpType: "oidc", fpName: p.fpName } } });
    expect(unsealClientSecret(replaced.clientSecret!)).toBe("next-secret-value");

    expect(await code(createProvider(p, admin))).toMatchObject({ code: "federation.provider_exists" });
    expect(await code(updateProvider(provider(), admin))).toMatchObject({ code: "federation.provider_not_found" });
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { startsWith: "federation.provider_" } } });
    expect(events.map((e) => e.type).sort()).toEqual(["federation.provider_changed", "federation.provider_changed", "federation.provider_created"]);
    expect(JSON.stringify(events.map((e) => e.params))).not.toMatch(/plain-secret-value|next-secret-value/);
  });

  it("refuses to delete a provider while accounts are bound to it, unless forced", async () => {
    const p = provider();
    await createProvider(p, admin);
    const key = { fpType: p.fpType, fpName: p.fpName };
    const user = await newUser();
    await bindExternalAccount(user, { ...key, sid: "ext-1" }, "ivan", admin);
    expect((await listProviders()).find((x) => x.fpName === p.fpName)!.bindings).toBe(1);
    expect(await code(deleteProvider(key, false, admin))).toEqual({ code: "federation.provider_in_use", params: { ...key, bindings: 1 } });
    expect(await userBindings(user)).toEqual([{ sid: "ext-1", fpType: "oidc", fpName: p.fpName, userName: "ivan" }]);
    await deleteProvider(key, true, admin);
    expect(await userBindings(user)).toEqual([]);
    expect(await code(deleteProvider(key, true, admin))).toMatchObject({ code: "federation.provider_not_found" });
    expect(await code(bindExternalAccount(user, { ...key, sid: "ext-1" }, undefined, admin))).toMatchObject({ code: "federation.provider_not_found" });

    const unused = provider();
    await createProvider(unused, admin);
    await deleteProvider({ fpType: unused.fpType, fpName: unused.fpName }, false, admin);
    expect((await listProviders()).some((x) => x.fpName === unused.fpName)).toBe(false);
  });

  it("unbinds from the console, and a deleted account takes its bindings with it", async () => {
    const p = provider({ fpType: "oauth2", discoveryUrl: undefined, authorizationEndpoint: "https://o.test/a", tokenEndpoint: "https://o.test/t", userinfoEndpoint: "https://o.test/u" });
    await createProvider(p, admin);
    const key = { fpType: p.fpType, fpName: p.fpName };
    const user = await newUser();
    await bindExternalAccount(user, { ...key, sid: "a" }, undefined, admin);
    await bindExternalAccount(user, { ...key, sid: "b" }, undefined, admin);
    await unbindUserAccount(user, { ...key, sid: "a" }, admin);
    expect(await code(unbindUserAccount(user, { ...key, sid: "a" }, admin))).toMatchObject({ code: "federation.binding_not_found" });
    expect(await userBindings(user)).toEqual([{ sid: "b", fpType: "oauth2", fpName: p.fpName }]);
    await deleteAccount((await readAccount(user)).instanceId, { actor: admin });
    expect(await t.db.prisma.federatedAccount.count({ where: { fpName: p.fpName } })).toBe(0);
  });
});
