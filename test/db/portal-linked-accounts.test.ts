import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { getConfig } from "../../server/config/config.ts";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { bindExternalAccount } from "../../server/federation/bindings.service.ts";
import { externalAuthCallbackRoute } from "../../server/federation/external-auth/callback.routes.ts";
import { callbackUrl } from "../../server/federation/external-auth/start.service.ts";
import { createProvider } from "../../server/federation/federation-console.service.ts";
import { ZProviderInput } from "../../server/federation/federation.schemas.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { Browser } from "../support/browser.ts";
import { FEDERATION_CLIENT, signInAtProvider, startFederationProvider, type TFederationProvider } from "../support/external-provider.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The portal's "Linked accounts" procedures: the person's own bindings only, and the step-up that
// linking and unlinking need (a way into the account is added or taken away).

const admin = { subject: "test-admin" };
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: "none", appCode: "none" }),
    (e: TRPCError) => ({ code: e.code, appCode: e.cause instanceof AppError ? e.cause.code : undefined }),
  );

describe.each(DB_KINDS)("portal linked accounts on %s", (kind) => {
  let t: TTestDatabase;
  let fpName: string;
  let linkable: string;
  let op: TFederationProvider;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinClients();
    fpName = unique("corp-");
    await createProvider(ZProviderInput.parse({ fpType: "oidc", fpName, clientId: "idp", clientSecret: "s3cret-value", discoveryUrl: "https://op.example.test" }), admin);
    op = await startFederationProvider({ redirectUris: [callbackUrl()] });
    linkable = unique("ext-");
    const real = { clientId: FEDERATION_CLIENT.id, clientSecret: FEDERATION_CLIENT.secret, discoveryUrl: op.issuer, scopes: ["openid", "profile"] };
    await createProvider(ZProviderInput.parse({ fpType: "oidc", fpName: linkable, ...real }), admin);
  });
  afterAll(async () => {
    await op?.close();
    await t?.close();
  });

  async function personSignedIn(signedInSecondsAgo = 0) {
    const sub = unique("linked-");
    const created = await inTransaction((tx) => createAccount({ attrs: { sub }, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx));
    const session = await startSession({ userId: created.id, amr: ["pwd"], ip: "203.0.113.7", userAgent: "Firefox" });
    const portalSession = portalSessionOf(created.id, session.session.id, signedInSecondsAgo);
    return { id: created.id, caller: appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "Firefox", deviceKey: session.deviceKey }) };
  }

  it("lists the person's own bindings and every provider, and unlinks one with an event naming the portal", async () => {
    const me = await personSignedIn();
    const other = await personSignedIn();
    await bindExternalAccount(me.id, { fpType: "oidc", fpName, sid: "ext-me" }, "ivan@corp", admin);
    await bindExternalAccount(other.id, { fpType: "oidc", fpName, sid: "ext-other" }, undefined, admin);
    const listed = await me.caller.portal.linkedAccounts.list();
    expect(listed.accounts).toEqual([{ fpType: "oidc", fpName, sid: "ext-me", userName: "ivan@corp" }]);
    expect(listed.providers).toContainEqual({ fpType: "oidc", fpName, label: `oidc:${fpName}` });
    expect(JSON.stringify(listed)).not.toContain("s3cret-value");

    // Another person's binding is not found, and stays.
    expect(await failureOf(me.caller.portal.linkedAccounts.unlink({ fpType: "oidc", fpName, sid: "ext-other" }))).toEqual({ code: "NOT_FOUND", appCode: "federation.binding_not_found" });
    expect((await other.caller.portal.linkedAccounts.list()).accounts).toHaveLength(1);

    await me.caller.portal.linkedAccounts.unlink({ fpType: "oidc", fpName, sid: "ext-me" });
    expect((await me.caller.portal.linkedAccounts.list()).accounts).toEqual([]);
    const event = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { type: "user.fa_unbound", subject: me.id } });
    expect(event.params).toMatchObject({ via: "portal", provider: `oidc:${fpName}`, sid: "ext-me" });
  });

  it("needs a recent sign-in to link or unlink, and changes nothing without one", async () => {
    const me = await personSignedIn(getConfig().reauthMaxAge + 1);
    await bindExternalAccount(me.id, { fpType: "oidc", fpName, sid: "ext-stale" }, undefined, admin);
    const reauth = { code: "FORBIDDEN", appCode: "portal.reauth_required" };
    expect(await failureOf(me.caller.portal.linkedAccounts.unlink({ fpType: "oidc", fpName, sid: "ext-stale" }))).toEqual(reauth);
    expect(await failureOf(me.caller.portal.linkedAccounts.link({ fpType: "oidc", fpName }))).toEqual(reauth);
    expect((await me.caller.portal.linkedAccounts.list()).accounts).toHaveLength(1);
  });

  it("links through the provider's own pages and comes back to the page with the outcome", async () => {
    const me = await personSignedIn();
    const { redirectTo } = await me.caller.portal.linkedAccounts.link({ fpType: "oidc", fpName: linkable });
    expect(new URL(redirectTo).origin).toBe(op.issuer);
    const sid = unique("alice-");
    const back = await signInAtProvider(new Browser(), redirectTo, sid);
    const done = await externalAuthCallbackRoute(new Request(back.location!), { params: Promise.resolve({}) });
    expect(done.status).toBe(302);
    const to = new URL(done.headers.get("location")!);
    expect(to.toString().startsWith(`${getConfig().issuer}/account/linked-accounts?`)).toBe(true);
    expect(Object.fromEntries(to.searchParams)).toEqual({ fp: `oidc:${linkable}`, result: "bound", sid });
    expect((await me.caller.portal.linkedAccounts.list()).accounts).toEqual([{ fpType: "oidc", fpName: linkable, sid, userName: sid }]);
    const event = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { type: "user.fa_bound", subject: me.id } });
    expect(event.params).toMatchObject({ via: "redirect", provider: `oidc:${linkable}`, sid });
  });

  it("refuses to link with a provider that is not configured", async () => {
    const me = await personSignedIn();
    expect(await failureOf(me.caller.portal.linkedAccounts.link({ fpType: "oidc", fpName: unique("none-") }))).toEqual({ code: "NOT_FOUND", appCode: "federation.provider_not_found" });
  });
});
