import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "../../server/errors/app-error.ts";
import { bindExternalAccount } from "../../server/federation/bindings.service.ts";
import { readFedTokens } from "../../server/federation/external-auth/fed-tokens.service.ts";
import { rememberExternalTokens } from "../../server/federation/external-auth/remember-tokens.ts";
import { bindBrowserCookie } from "../../server/federation/external-auth/bind-browser.ts";
import { deleteToken, findToken, releaseRefreshLease, takeRefreshLease } from "../../server/federation/external-auth/tokens.repository.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { inTransaction } from "../../server/db/index.ts";
import { createProvider } from "../../server/federation/federation-console.service.ts";
import { ZProviderInput } from "../../server/federation/federation.schemas.ts";
import { externalAuthCallbackRoute } from "../../server/federation/external-auth/callback.routes.ts";
import { callbackUrl, startExternalAuth } from "../../server/federation/external-auth/start.service.ts";
import { unbindExternalAccount } from "../../server/federation/bindings.service.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { Browser } from "../support/browser.ts";
import { FEDERATION_CLIENT, signInAtProvider, startFakeProvider, startFederationProvider, type TExternalProvider, type TFederationProvider } from "../support/external-provider.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;
// The browser that finishes a binding: signed in to the portal as the user (next/headers, in-process
// here), with the cookie /fa/start gave it for the request.
const browserPortal = vi.hoisted(() => ({ session: null as Session | null }));
vi.mock("../../server/auth/portal-session.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../server/auth/portal-session.ts")>()),
  readPortalSession: () => Promise.resolve(browserPortal.session),
}));
const asUser = (userId: string) => (browserPortal.session = portalSessionOf(userId, "sid-of-the-test"));
const cookieFor = (stateHash: string) => bindBrowserCookie(stateHash, 600_000).split(";")[0]!;
const callback = (url: string, stateHash?: string) =>
  externalAuthCallbackRoute(new Request(url, { headers: stateHash ? { cookie: cookieFor(stateHash) } : {} }), { params: Promise.resolve({}) });

async function newUser(): Promise<string> {
  return (await inTransaction((tx) => createAccount({ attrs: { sub: unique("fa-") }, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx))).id;
}

describe.each(DB_KINDS)("the external providers' redirect flow in process on %s", (kind) => {
  let t: TTestDatabase;
  let op: TFederationProvider;
  const fpName = unique("ext-");
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    op = await startFederationProvider({ redirectUris: [callbackUrl()] });
    await createProvider(
      ZProviderInput.parse({ fpType: "oidc", fpName, clientId: FEDERATION_CLIENT.id, clientSecret: FEDERATION_CLIENT.secret, discoveryUrl: op.issuer, scopes: ["openid", "profile"], rememberTokens: true }),
      { subject: "test-admin" },
    );
  });
  afterAll(async () => {
    await op?.close();
    await t?.close();
  });

  it("binds through the provider's own pages, stores its tokens sealed, and refuses the state a second time", async () => {
    const userId = await newUser();
    const login = unique("alice-");
    const { redirectTo, stateHash } = await startExternalAuth({ provider: { fpType: "oidc", fpName }, purpose: "bind", userId, returnTo: "https://app.example.test/done?x=1" });
    asUser(userId);
    const sent = new URL(redirectTo);
    expect(sent.origin).toBe(op.issuer);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({ response_type: "code", client_id: FEDERATION_CLIENT.id, redirect_uri: callbackUrl(), scope: "openid profile", code_challenge_method: "S256" });
    const back = await signInAtProvider(new Browser(), redirectTo, login);
    expect(back.location!.startsWith(callbackUrl())).toBe(true);

    const res = await callback(back.location!, stateHash);
    expect(res.status).toBe(302);
    const outcome = new URL(res.headers.get("location")!);
    expect(outcome.origin + outcome.pathname).toBe("https://app.example.test/done");
    expect(Object.fromEntries(outcome.searchParams)).toEqual({ x: "1", fp: `oidc:${fpName}`, result: "bound", sid: login });
    expect(await t.db.prisma.federatedAccount.findMany({ where: { fpName }, select: { sid: true, userId: true, userName: true } })).toEqual([{ sid: login, userId, userName: login }]);
    const stored = await t.db.prisma.externalToken.findMany({ where: { fpName } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.accessToken.startsWith("v2.")).toBe(true);
    expect(stored[0]!.refreshToken).not.toBeNull();

    const again = await callback(back.location!, stateHash);
    expect(again.status).toBe(400);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(await again.text()).toMatch(/unknown, used already or expired|неизвестна, уже использована/);

    await unbindExternalAccount(userId, { fpType: "oidc", fpName, sid: login }, { subject: userId });
    expect(await t.db.prisma.externalToken.count({ where: { fpName } })).toBe(0);
  });

  describe("against a provider whose answers the test controls", () => {
    let fake: TExternalProvider;
    const fakeName = unique("fake-");
    const signing = generateKeyPair("ES256");
    let answered = { status: 500, body: "{}" };
    beforeAll(async () => {
      const jwk = { ...(await exportJWK((await signing).publicKey)), kid: "k1", alg: "ES256", use: "sig" };
      fake = await startFakeProvider((issuer, p) => {
        if (p === "/.well-known/openid-configuration") return { status: 200, body: JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }) };
        if (p === "/jwks") return { status: 200, body: JSON.stringify({ keys: [jwk] }) };
        if (p === "/token") return answered;
        return { status: 404, body: "{}" };
      });
      await createProvider(
        ZProviderInput.parse({ fpType: "oidc", fpName: fakeName, clientId: "svc", clientSecret: "s", discoveryUrl: fake.issuer, rememberTokens: true, minTokenLifeS: 86_400 }),
        { subject: "test-admin" },
      );
    });
    afterAll(async () => fake?.close());

    const idToken = async (claims: Record<string, unknown>) =>
      new SignJWT({ sub: "ext-1", ...claims }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setIssuedAt().setExpirationTime("5m").sign((await signing).privateKey);

    /** A binding started and its callback answered, with the provider's token endpoint answering what `prepare` makes of the nonce. */
    async function bindWith(prepare: (nonce: string) => Promise<{ status: number; body: string }>, query: Record<string, string> = { code: "c" }) {
      const userId = await newUser();
      const { redirectTo, stateHash } = await startExternalAuth({ provider: { fpType: "oidc", fpName: fakeName }, purpose: "bind", userId, returnTo: "https://app.example.test/cb" });
      const sent = new URL(redirectTo).searchParams;
      answered = await prepare(sent.get("nonce")!);
      asUser(userId);
      const res = await callback(`${callbackUrl()}?${new URLSearchParams({ state: sent.get("state")!, ...query })}`, stateHash);
      return { userId, outcome: Object.fromEntries(new URL(res.headers.get("location")!).searchParams) };
    }
    const tokenBody = (id_token: string) => ({ status: 200, body: JSON.stringify({ access_token: "at", token_type: "Bearer", expires_in: 60, id_token }) });

    it("binds with a valid ID token, and refuses a wrong nonce, audience, issuer or signature, or a failing token endpoint", async () => {
      expect((await bindWith(async (nonce) => tokenBody(await idToken({ nonce, sub: unique("ok-") })))).outcome).toMatchObject({ result: "bound" });
      expect((await bindWith(async (nonce) => tokenBody(await idToken({ nonce, sub: unique("ok-"), azp: "svc" })))).outcome).toMatchObject({ result: "bound" });
      const key = async () => (await signing).privateKey;
      const hmac = new TextEncoder().encode("s".repeat(32));
      const foreignKey = (await generateKeyPair("ES256")).privateKey;
      const bad = [
        async () => tokenBody(await idToken({ nonce: "another" })),
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("other").setExpirationTime("5m").sign((await signing).privateKey)),
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer("https://evil.example").setAudience("svc").setExpirationTime("5m").sign((await signing).privateKey)),
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setExpirationTime("5m").sign(foreignKey)),
        async () => ({ status: 400, body: JSON.stringify({ error: "invalid_grant" }) }),
        // Required claims (exp, iat, sub), azp naming another client, a symmetric algorithm.
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setExpirationTime("5m").sign(await key())),
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setIssuedAt().sign(await key())),
        async (nonce: string) => tokenBody(await new SignJWT({ nonce }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setIssuedAt().setExpirationTime("5m").sign(await key())),
        async (nonce: string) => tokenBody(await idToken({ nonce, azp: "another-client" })),
        async (nonce: string) => tokenBody(await new SignJWT({ sub: "x", nonce }).setProtectedHeader({ alg: "HS256", kid: "k1" }).setIssuer(fake.issuer).setAudience("svc").setIssuedAt().setExpirationTime("5m").sign(hmac)),
      ];
      for (const prepare of bad) {
        const { userId, outcome } = await bindWith(prepare);
        expect(outcome).toMatchObject({ result: "error", error: "fp_refused" });
        expect(await t.db.prisma.federatedAccount.count({ where: { userId } })).toBe(0);
      }
      for (const status of [500, 302]) {
        expect((await bindWith(async () => ({ status, body: "oops" }))).outcome).toMatchObject({ result: "error", error: "fp_unavailable" });
      }
    });

    it("refuses a binding finished in another browser before anything is bound, and a code over the size limit at the application", async () => {
      const userId = await newUser();
      const other = await newUser();
      for (const [as, withCookie] of [[userId, false], [other, true], [null, true]] as const) {
        const { redirectTo, stateHash } = await startExternalAuth({ provider: { fpType: "oidc", fpName: fakeName }, purpose: "bind", userId, returnTo: "https://app.example.test/cb" });
        const sent = new URL(redirectTo).searchParams;
        answered = tokenBody(await idToken({ nonce: sent.get("nonce"), sub: unique("stolen-") }));
        browserPortal.session = as === null ? null : portalSessionOf(as, "sid-of-the-test");
        const res = await callback(`${callbackUrl()}?${new URLSearchParams({ state: sent.get("state")!, code: "c" })}`, withCookie ? stateHash : undefined);
        expect(Object.fromEntries(new URL(res.headers.get("location")!).searchParams)).toMatchObject({ result: "error", error: "fp_refused" });
      }
      expect(await t.db.prisma.federatedAccount.count({ where: { userId: { in: [userId, other] } } })).toBe(0);
      const oversize: Record<string, string>[] = [{ code: "c".repeat(4097) }, { error: "access_denied", error_description: "d".repeat(1025) }];
      for (const query of oversize) {
        const { userId: u, outcome } = await bindWith(async (nonce) => tokenBody(await idToken({ nonce, sub: unique("big-") })), query);
        expect(outcome).toMatchObject({ result: "error", error: "fp_refused" });
        expect(await t.db.prisma.federatedAccount.count({ where: { userId: u } })).toBe(0);
      }
    });

    it("answers 502 when a stale token cannot be refreshed because the provider fails, keeping the token; lets one refresher take the lease", async () => {
      await importDocument({ clients: [{ id: "fa-db-app", name: "fa", secret: "fa-db-app-secret-value", scopes: ["fed_tkn_any"] }] }, { subject: "test-admin" });
      const userId = await newUser();
      const key = { fpType: "oidc" as const, fpName: fakeName };
      await bindExternalAccount(userId, { ...key, sid: "s-1" }, undefined, { subject: userId });
      await rememberExternalTokens(userId, { provider: key, sid: "s-1", claims: {}, tokens: { accessToken: "stored-at", refreshToken: "stored-rt", expiresAt: new Date(Date.now() + 60_000) } });
      const ctx = { requestId: "r", actor: { mode: "system" as const, clientId: "fa-db-app", scopes: ["fed_tkn_any"], jti: "j" } };
      answered = { status: 503, body: "down" };
      const e = await readFedTokens(ctx, userId, key).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe("federation.provider_unavailable");
      expect((e as AppError).status).toBe(502);
      const row = await t.db.prisma.externalToken.findFirstOrThrow({ where: { fpName: fakeName, sid: "s-1" } });
      expect(row.refreshingUntil).toBeNull();
      expect(row.accessToken).not.toContain("stored-at");

      const leases = await Promise.all([1, 2, 3].map(() => takeRefreshLease({ ...key, sid: "s-1" }, row.accessToken, 15_000)));
      expect(leases.filter(Boolean)).toHaveLength(1);
    });

    it("lets a waiter take over a lease released early, drops a refused token only while it is stored, and says expiresOn null when unknown", async () => {
      const userId = await newUser();
      const key = { fpType: "oidc" as const, fpName: fakeName };
      const k2 = { ...key, sid: "s-2" };
      for (const sid of ["s-2", "s-3"]) await bindExternalAccount(userId, { ...key, sid }, undefined, { subject: userId });
      await rememberExternalTokens(userId, { provider: key, sid: "s-2", claims: {}, tokens: { accessToken: "stale-at", refreshToken: "stale-rt", expiresAt: new Date(Date.now() + 60_000) } });
      await rememberExternalTokens(userId, { provider: key, sid: "s-3", claims: {}, tokens: { accessToken: "forever-at" } });
      const ctx = { requestId: "r", actor: { mode: "system" as const, clientId: "fa-db-app", scopes: ["fed_tkn_any"], jti: "j" } };

      // Another process holds the lease, then lets it go without a result: the reader refreshes at once, not after the lease.
      expect(await takeRefreshLease(k2, (await findToken(k2))!.accessToken, 20_000)).toBe(true);
      answered = { status: 200, body: JSON.stringify({ access_token: "fresh-at", token_type: "Bearer", expires_in: 3600 }) };
      const started = Date.now();
      const reading = readFedTokens(ctx, userId, key);
      await new Promise((r) => setTimeout(r, 300));
      await releaseRefreshLease(k2);
      const read = await reading;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(read["s-2"]).toEqual({ token: "fresh-at", expiresOn: expect.any(Number) });
      expect(read["s-3"]).toEqual({ token: "forever-at", expiresOn: null });

      // The provider refused the refresh of the old token while a new sign-in stored fresh ones: those stay.
      const old = (await findToken(k2))!.accessToken;
      await rememberExternalTokens(userId, { provider: key, sid: "s-2", claims: {}, tokens: { accessToken: "new-sign-in-at" } });
      expect(await deleteToken(k2, old)).toBe(false);
      const kept = (await findToken(k2))!.accessToken;
      expect(kept).not.toBe(old);
      expect(await deleteToken(k2, kept)).toBe(true);
      expect(await findToken(k2)).toBeNull();
    });
  });
});
