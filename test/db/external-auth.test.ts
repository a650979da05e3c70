import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../server/db/index.ts";
import { createProvider } from "../../server/federation/federation-console.service.ts";
import { ZProviderInput } from "../../server/federation/federation.schemas.ts";
import { externalAuthCallbackRoute } from "../../server/federation/external-auth/callback.routes.ts";
import { callbackUrl, startExternalAuth } from "../../server/federation/external-auth/start.service.ts";
import { unbindExternalAccount } from "../../server/federation/bindings.service.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { Browser } from "../support/browser.ts";
import { FEDERATION_CLIENT, signInAtProvider, startFederationProvider, type TFederationProvider } from "../support/external-provider.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;
const callback = (url: string) => externalAuthCallbackRoute(new Request(url), { params: Promise.resolve({}) });

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
    const { redirectTo } = await startExternalAuth({ provider: { fpType: "oidc", fpName }, purpose: "bind", userId, returnTo: "https://app.example.test/done?x=1" });
    const sent = new URL(redirectTo);
    expect(sent.origin).toBe(op.issuer);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({ response_type: "code", client_id: FEDERATION_CLIENT.id, redirect_uri: callbackUrl(), scope: "openid profile", code_challenge_method: "S256" });
    const back = await signInAtProvider(new Browser(), redirectTo, login);
    expect(back.location!.startsWith(callbackUrl())).toBe(true);

    const res = await callback(back.location!);
    expect(res.status).toBe(302);
    const outcome = new URL(res.headers.get("location")!);
    expect(outcome.origin + outcome.pathname).toBe("https://app.example.test/done");
    expect(Object.fromEntries(outcome.searchParams)).toEqual({ x: "1", fp: `oidc:${fpName}`, result: "bound", sid: login });
    expect(await t.db.prisma.federatedAccount.findMany({ where: { fpName }, select: { sid: true, userId: true, userName: true } })).toEqual([{ sid: login, userId, userName: login }]);
    const stored = await t.db.prisma.externalToken.findMany({ where: { fpName } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.accessToken.startsWith("v1.")).toBe(true);
    expect(stored[0]!.refreshToken).not.toBeNull();

    const again = await callback(back.location!);
    expect(again.status).toBe(400);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(await again.text()).toMatch(/unknown, used already or expired|неизвестна, уже использована/);

    await unbindExternalAccount(userId, { fpType: "oidc", fpName, sid: login }, { subject: userId });
    expect(await t.db.prisma.externalToken.count({ where: { fpName } })).toBe(0);
  });
});
