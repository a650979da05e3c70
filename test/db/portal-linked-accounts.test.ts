import { TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { getConfig } from "../../server/config/config.ts";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { bindExternalAccount } from "../../server/federation/bindings.service.ts";
import { faStartRoute } from "../../server/federation/external-auth/bind-start.routes.ts";
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

// The browser's portal session as next/headers would read it in a request (the routes run in-process here).
const browserPortal = vi.hoisted(() => ({ session: null as Session | null }));
vi.mock("../../server/auth/portal-session.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../server/auth/portal-session.ts")>()),
  readPortalSession: () => Promise.resolve(browserPortal.session),
}));

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
    return { id: created.id, portalSession, caller: appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "Firefox", deviceKey: session.deviceKey }) };
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

  it("links through the provider's own pages in the person's own browser and comes back to the page with the outcome", async () => {
    const me = await personSignedIn();
    const route = { params: Promise.resolve({}) };
    /** The portal's Link, then /fa/start in a browser signed in to the portal as `as` (none: no session). */
    const linkInBrowser = async (as: Session | null) => {
      const { redirectTo } = await me.caller.portal.linkedAccounts.link({ fpType: "oidc", fpName: linkable });
      expect(redirectTo.startsWith(`${getConfig().issuer}/fa/start?req=`)).toBe(true);
      browserPortal.session = as;
      return faStartRoute(new Request(redirectTo), route);
    };
    const backFromProvider = async (started: Response, sid: string) => {
      expect(started.status).toBe(302);
      const authorizationUrl = started.headers.get("location")!;
      expect(new URL(authorizationUrl).origin).toBe(op.issuer);
      return (await signInAtProvider(new Browser(), authorizationUrl, sid)).location!;
    };
    const outcome = (r: Response) => Object.fromEntries(new URL(r.headers.get("location")!).searchParams);

    // Without the portal's session: its sign-in first. As another person: refused, nothing happens.
    expect((await linkInBrowser(null)).headers.get("location")).toContain("/account/fa/continue?req=");
    expect((await linkInBrowser((await personSignedIn()).portalSession)).status).toBe(403);

    // The provider's answer in a browser without the cookie /fa/start set: refused before the code is used.
    const sid = unique("alice-");
    const stolen = await backFromProvider(await linkInBrowser(me.portalSession), sid);
    const refused = await externalAuthCallbackRoute(new Request(stolen), route);
    expect(outcome(refused)).toMatchObject({ result: "error", error: "fp_refused" });
    expect((await me.caller.portal.linkedAccounts.list()).accounts).toEqual([]);

    const started = await linkInBrowser(me.portalSession);
    expect(started.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    const cookie = started.headers.get("set-cookie")!.split(";")[0]!;
    const back = await backFromProvider(started, sid);
    // The right cookie but the portal signed in as someone else: refused too.
    browserPortal.session = (await personSignedIn()).portalSession;
    expect(outcome(await externalAuthCallbackRoute(new Request(back, { headers: { cookie } }), route))).toMatchObject({ result: "error", error: "fp_refused" });

    browserPortal.session = me.portalSession;
    const again = await linkInBrowser(me.portalSession);
    const done = await externalAuthCallbackRoute(new Request(await backFromProvider(again, sid), { headers: { cookie: again.headers.get("set-cookie")!.split(";")[0]! } }), route);
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
