import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getClientForAuth } from "../../server/clients/clients.service.ts";
import { hasConsent } from "../../server/consents/consents.service.ts";
import { grantConsent } from "../../server/consents/consents.service.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importFile } from "../../server/import/import.service.ts";
import { ensureSigningKey } from "../../server/oauth/keys/signing-keys.service.ts";
import { CODE_TTL_MS, issueAuthorizationCode, redeemAuthorizationCode } from "../../server/oauth/grants/authorization-codes.service.ts";
import { reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "../../server/sign-in/throttle.service.ts";
import { ACCOUNT_POLICY, IP_POLICY } from "../../server/sign-in/throttle-policy.ts";
import { startSession, findActiveSession, findLiveSession, findSessionToEnd, endSessionByToken } from "../../server/sessions/sessions.service.ts";
import { getConfig } from "../../server/config/config.ts";
import { refreshGrant } from "../../server/oauth/grants/refresh-tokens.service.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Service-level tests of what needs a controlled clock or direct sight of the database: code expiry,
// atomic failure counting, consent merging, sessions and devices as stored.

const grant = { clientId: "rp-web", userId: "ivanov", sessionId: null, redirectUri: "https://rp.example.test/callback", scopes: ["openid"], nonce: null, codeChallenge: null, authTime: new Date(), amr: ["pwd"], acr: "1" };

describe.each(DB_KINDS)("sign-in and grants on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importFile(IMPORT_FIXTURE, {});
    await ensureSigningKey();
  });
  afterAll(async () => t?.close());

  it("refuses an authorization code after its lifetime and redeems it within", async () => {
    const client = (await getClientForAuth("rp-web"))!;
    const issuedAt = new Date("2026-11-25T10:00:00Z");
    const late = await issueAuthorizationCode(grant, issuedAt);
    const after = new Date(issuedAt.getTime() + CODE_TTL_MS + 1);
    const refused = await redeemAuthorizationCode({ client, code: late, redirectUri: grant.redirectUri, codeVerifier: undefined }, after).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details.desc).toMatch(/expired/);
    const inTime = await issueAuthorizationCode(grant);
    const tokens = await redeemAuthorizationCode({ client, code: inTime, redirectUri: grant.redirectUri, codeVerifier: undefined });
    expect(tokens.id_token).toEqual(expect.any(String));
    const stored = await t.db.prisma.authorizationCode.findMany({ select: { codeHash: true } });
    expect(stored.map((c) => c.codeHash)).not.toContain(inTime);
  });

  it("counts parallel failures atomically: never more attempts than the threshold", async () => {
    const key = `user:parallel-${kind}`;
    const results = await Promise.all(Array.from({ length: 30 }, () => reserveSignInAttempt([{ key, policy: ACCOUNT_POLICY }])));
    expect(results.filter((r) => r.allowed)).toHaveLength(ACCOUNT_POLICY.threshold);
    // Only failures lock: until the allowed attempts are settled, the rest are told to wait a second.
    expect(results.filter((r) => !r.allowed).map((r) => (r as { retryAfterS: number }).retryAfterS)).toEqual(Array(25).fill(1));
    await Promise.all(results.filter((r) => r.allowed).map(() => settleFailedAttempt([{ key, policy: ACCOUNT_POLICY }])));
    const row = await t.db.prisma.signInThrottle.findUnique({ where: { key } });
    expect(row).toMatchObject({ failures: ACCOUNT_POLICY.threshold, level: 1 });
    // The first lockout lasts baseLockMs from the failure that filled the series (later settles of
    // the same burst only touch updatedAt).
    const lockMs = row!.lockedUntil!.getTime() - row!.updatedAt.getTime();
    expect(lockMs).toBeGreaterThan(ACCOUNT_POLICY.baseLockMs - 1_000);
    expect(lockMs).toBeLessThanOrEqual(ACCOUNT_POLICY.baseLockMs);
  });

  it("settles a success: the account's series starts over, the address gets one slot back", async () => {
    const account = { key: `user:settle-${kind}`, policy: ACCOUNT_POLICY };
    const ip = { key: `ip:settle-${kind}`, policy: IP_POLICY };
    for (let i = 0; i < 4; i++) {
      expect((await reserveSignInAttempt([account, ip])).allowed).toBe(true);
      await settleFailedAttempt([account, ip]);
    }
    expect((await reserveSignInAttempt([account, ip])).allowed).toBe(true);
    await settleSuccessfulAttempt(account.key, [ip.key]);
    const rows = await t.db.prisma.signInThrottle.findMany({ where: { key: { in: [account.key, ip.key] } }, orderBy: { key: "asc" } });
    expect(rows.map(({ key, failures, level, lockedUntil, windowFailures }) => ({ key, failures, level, lockedUntil, windowFailures }))).toEqual([
      { key: ip.key, failures: 4, level: 0, lockedUntil: null, windowFailures: 4 },
      { key: account.key, failures: 0, level: 0, lockedUntil: null, windowFailures: 4 },
    ]);
  });

  it("merges consents and answers whether one covers the scopes asked", async () => {
    await grantConsent("ivanov", "rp-web", ["openid", "profile"], {});
    await grantConsent("ivanov", "rp-web", ["openid", "email"], {});
    expect(await hasConsent("ivanov", "rp-web", ["profile", "email"])).toBe(true);
    expect(await hasConsent("ivanov", "rp-web", ["phone"])).toBe(false);
    const row = await t.db.prisma.consent.findUnique({ where: { userId_clientId: { userId: "ivanov", clientId: "rp-web" } } });
    expect(row!.scopes).toEqual(["email", "openid", "profile"]);
  });

  it("keeps sessions and device keys hashed, recognises the device again, and ends a session", async () => {
    const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const first = await startSession({ userId: "ivanov", amr: ["pwd"], ip: "192.0.2.1", userAgent: ua });
    const second = await startSession({ userId: "ivanov", amr: ["pwd"], deviceKey: first.deviceKey, ip: "192.0.2.2", userAgent: ua });
    expect(second.session.deviceId).toBe(first.session.deviceId);
    const device = await t.db.prisma.device.findUnique({ where: { id: first.session.deviceId! } });
    expect(device).toMatchObject({ kind: "desktop", name: "Chrome, Windows", lastIp: "192.0.2.2" });
    expect(device!.keyHash).not.toBe(first.deviceKey);
    const stored = await t.db.prisma.browserSession.findUnique({ where: { id: first.session.id } });
    expect(stored!.tokenHash).not.toBe(first.token);
    expect((await findActiveSession(first.token))!.id).toBe(first.session.id);
    await endSessionByToken(first.token);
    expect(await findActiveSession(first.token)).toBeNull();
    expect(await findActiveSession(second.token, new Date(Date.now() + 365 * 86_400_000))).toBeNull();
    // A new sign-in in the same browser replaces its session, and its event is written with it.
    const third = await startSession({ userId: "ivanov", amr: ["pwd"], replacesToken: second.token, events: [{ type: "user.signed_in", actor: { subject: "ivanov" }, params: { method: "pwd" } }] });
    expect(await findActiveSession(second.token)).toBeNull();
    expect((await findActiveSession(third.token))!.id).toBe(third.session.id);
    const events = await t.db.prisma.securityEvent.findMany({ where: { subject: "ivanov", type: "user.signed_in" }, select: { params: true } });
    expect(events).toEqual([{ params: { method: "pwd" } }]);
  });

  it("ends a browser session left unused for IDP_SESSION_IDLE_TTL, long before its absolute lifetime", async () => {
    const idleMs = getConfig().sessionIdleTtl * 1000;
    expect(idleMs).toBeGreaterThan(0);
    const t0 = Date.parse("2026-11-28T10:00:00Z");
    const used = await startSession({ userId: "ivanov", amr: ["pwd"] }, new Date(t0));
    const unused = await startSession({ userId: "ivanov", amr: ["pwd"] }, new Date(t0));
    // Used halfway through: its idle time starts again from there.
    expect(await findActiveSession(used.token, new Date(t0 + idleMs / 2))).not.toBeNull();
    const later = new Date(t0 + idleMs + 2 * 60_000);
    expect((await findActiveSession(used.token, later))?.id).toBe(used.session.id);
    expect(await findActiveSession(unused.token, later)).toBeNull();
    expect(await findLiveSession(unused.session.id, later)).toBeNull();
    // Signing out of an idle session still finds it, so what it holds ends with it.
    expect((await findSessionToEnd(unused.token, later))?.id).toBe(unused.session.id);
    expect(await findActiveSession(used.token, new Date(later.getTime() + idleMs + 2 * 60_000))).toBeNull();
  });

  it("ends a session that inherits an earlier sign-in (a QR code confirmed) when that sign-in's lifetime ends", async () => {
    const ttlMs = getConfig().sessionTtl * 1000;
    const t0 = Date.parse("2026-11-28T10:00:00Z");
    const first = await startSession({ userId: "ivanov", amr: ["pwd"] }, new Date(t0));
    // Each session confirms the next one's QR code near the end of its own life: the chain never
    // outlives the password typed at t0.
    const second = await startSession({ userId: "ivanov", amr: ["pwd", "qr"], authTime: first.session.authTime }, new Date(t0 + ttlMs - 60_000));
    const third = await startSession({ userId: "ivanov", amr: ["pwd", "qr"], authTime: second.session.authTime }, new Date(t0 + ttlMs - 30_000));
    for (const s of [first, second, third]) expect(s.session.expiresAt.getTime()).toBe(t0 + ttlMs);
    expect(await findLiveSession(third.session.id, new Date(t0 + ttlMs - 10_000))).not.toBeNull();
    expect(await findLiveSession(third.session.id, new Date(t0 + ttlMs + 1_000))).toBeNull();
  });

  it("gives a refresh token family an absolute end, however often it is rotated", async () => {
    const client = (await getClientForAuth("rp-web"))!;
    const maxMs = getConfig().refreshFamilyMaxTtl * 1000;
    const signedIn = new Date(Date.now() - maxMs + 60_000);
    const code = await issueAuthorizationCode({ ...grant, scopes: ["openid", "offline_access"], authTime: signedIn });
    const first = await redeemAuthorizationCode({ client, code, redirectUri: grant.redirectUri, codeVerifier: undefined });
    // Issued a minute before the family's end: it expires then, not a refresh lifetime from now.
    const stored = await t.db.prisma.refreshToken.findFirst({ where: { userId: "ivanov", authTime: signedIn }, select: { expiresAt: true } });
    expect(stored!.expiresAt.getTime()).toBe(signedIn.getTime() + maxMs);
    const rotated = await refreshGrant({ client, token: first.refresh_token! });
    const refused = await refreshGrant({ client, token: rotated.refresh_token! }, new Date(signedIn.getTime() + maxMs + 1_000)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("oauth.invalid_grant");
  });
});
