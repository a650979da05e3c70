import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getClientForAuth } from "../../server/clients/clients.service.ts";
import { grantConsent, hasConsent } from "../../server/consents/consents.service.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importFile } from "../../server/import/import.service.ts";
import { issueAuthorizationCode, redeemAuthorizationCode } from "../../server/oauth/grants/authorization-codes.service.ts";
import { findLiveRefreshToken } from "../../server/oauth/grants/refresh-tokens.service.ts";
import { ensureSigningKey } from "../../server/oauth/keys/signing-keys.service.ts";
import { verifyAccessToken } from "../../server/oauth/tokens/access-token.ts";
import { findActiveSession, startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { createUser } from "../../server/users/users-console.service.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const LAPTOP_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const REDIRECT = "https://rp.example.test/callback";

/** Tokens of rp-web for the user, as a redeemed authorization code gives them. */
async function tokensFor(userId: string, sessionId: string | null) {
  const code = await issueAuthorizationCode({
    clientId: "rp-web", userId, sessionId, redirectUri: REDIRECT, scopes: ["openid", "offline_access"], nonce: null, codeChallenge: null, authTime: new Date(), amr: ["pwd"], acr: "1",
  });
  const tokens = await redeemAuthorizationCode({ client: (await getClientForAuth("rp-web"))!, code, redirectUri: REDIRECT, codeVerifier: undefined });
  return { access: tokens.access_token, refresh: tokens.refresh_token! };
}

const refused = (token: string) => Promise.resolve().then(() => verifyAccessToken(token)).then(() => null, (e: unknown) => (e instanceof AppError ? e.code : e));

describe.each(DB_KINDS)("a user's devices, sessions and consents in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: ReturnType<typeof appRouter.createCaller>;
  let adminId: string;
  // Each database kind has its own user: the token cutoffs are cached per user in this process.
  const sub = `sessions-${kind}`;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importFile(IMPORT_FIXTURE, {});
    await ensureSigningKey();
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    admin = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
    await createUser({ attributes: { sub } }, { subject: adminId });
  });
  afterAll(async () => t?.close());

  const eventsOf = (type: string) => t.db.prisma.securityEvent.findMany({ where: { type, subject: sub }, orderBy: { id: "asc" } });

  it("lists the devices; signing one out ends its sessions and tokens only, as the administrator", async () => {
    const phone = await startSession({ userId: sub, amr: ["pwd"], ip: "192.0.2.10", userAgent: PHONE_UA });
    const laptop = await startSession({ userId: sub, amr: ["pwd"], ip: "192.0.2.20", userAgent: LAPTOP_UA });
    const phoneTokens = await tokensFor(sub, phone.session.id);
    const laptopTokens = await tokensFor(sub, laptop.session.id);

    const devices = await admin.console.sessions.devices({ sub });
    expect(devices.map((d) => [d.kind, d.name, d.lastIp])).toEqual(
      expect.arrayContaining([["mobile", "Safari, iOS", "192.0.2.10"], ["desktop", "Firefox, Linux", "192.0.2.20"]]),
    );
    expect(devices).toHaveLength(2);

    await admin.console.sessions.signOutDevice({ sub, id: phone.session.deviceId! });

    expect((await admin.console.sessions.devices({ sub })).map((d) => d.id)).toEqual([laptop.session.deviceId]);
    expect(await findActiveSession(phone.token)).toBeNull();
    expect(await refused(phoneTokens.access)).toBe("auth.token_revoked");
    expect(await findLiveRefreshToken(phoneTokens.refresh)).toBeNull();
    expect(await findActiveSession(laptop.token)).not.toBeNull();
    expect(await refused(laptopTokens.access)).toBeNull();
    const [removed] = await eventsOf("user.device_removed");
    expect(removed).toMatchObject({
      ip: "203.0.113.9",
      userAgent: "AdminBrowser",
      params: { device: phone.session.deviceId, ended: 1, by: "console", admin: adminId },
    });
  });

  it("ends all sessions: every session and every token issued before", async () => {
    const other = await startSession({ userId: sub, amr: ["pwd"], ip: "192.0.2.30", userAgent: LAPTOP_UA });
    const tokens = await tokensFor(sub, other.session.id);
    await admin.console.sessions.endAll({ sub });
    expect(await findActiveSession(other.token)).toBeNull();
    expect(await refused(tokens.access)).toBe("auth.token_revoked");
    expect(await findLiveRefreshToken(tokens.refresh)).toBeNull();
    expect(await t.db.prisma.browserSession.count({ where: { userId: sub } })).toBe(0);
    const [reset] = await eventsOf("user.sessions_reset");
    expect(reset!.params).toMatchObject({ by: "console", admin: adminId, keptDevice: null });
  });

  it("lists consents; revoking one revokes that client's refresh tokens and asks again next time", async () => {
    await grantConsent(sub, "rp-web", ["openid", "offline_access"], {});
    const tokens = await tokensFor(sub, null);
    const [consent, ...more] = await admin.console.sessions.consents({ sub });
    expect(more).toEqual([]);
    expect(consent).toMatchObject({ client_id: "rp-web" });
    expect(consent!.scopes.sort()).toEqual(["offline_access", "openid"]);

    await admin.console.sessions.revokeConsent({ sub, id: consent!.id });

    expect(await admin.console.sessions.consents({ sub })).toEqual([]);
    expect(await hasConsent(sub, "rp-web", ["openid"])).toBe(false);
    expect(await findLiveRefreshToken(tokens.refresh)).toBeNull();
    expect(await refused(tokens.access)).toBe("auth.token_revoked");
    const [revoked] = await eventsOf("user.consent_revoked");
    expect(revoked!.params).toEqual({ client: "rp-web", by: "console", admin: adminId });
  });

  it("answers unknown users, devices and consents with NOT_FOUND and their registry codes, and refuses non-administrators", async () => {
    const failure = (p: Promise<unknown>) => p.then(() => null, (e: { code: string; cause?: AppError }) => [e.code, e.cause?.code]);
    expect(await failure(admin.console.sessions.devices({ sub: "nobody" }))).toEqual(["NOT_FOUND", "user.not_found"]);
    expect(await failure(admin.console.sessions.endAll({ sub: "nobody" }))).toEqual(["NOT_FOUND", "user.not_found"]);
    expect(await failure(admin.console.sessions.signOutDevice({ sub, id: "no-such-device" }))).toEqual(["NOT_FOUND", "device.not_found"]);
    expect(await failure(admin.console.sessions.revokeConsent({ sub, id: "no-such-consent" }))).toEqual(["NOT_FOUND", "consent.not_found"]);

    const user = appRouter.createCaller({ session: { user: { id: sub }, expires: "2999-01-01T00:00:00Z" } as Session });
    expect(await failure(user.console.sessions.devices({ sub }))).toEqual(["UNAUTHORIZED", undefined]);
    expect(await failure(user.console.sessions.endAll({ sub }))).toEqual(["UNAUTHORIZED", undefined]);
  });
});
