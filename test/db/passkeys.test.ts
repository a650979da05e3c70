import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Session } from "next-auth";
import { ZodError } from "zod";
import { AppError } from "../../server/errors/app-error.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { changeAuthModes } from "../../server/auth-modes/auth-modes.service.ts";
import { bindGenerator, generatorsOf, removeGenerator } from "../../server/otp/otp.service.ts";
import { passkeyFactorOptions, passkeySignInOptions, verifyPasskeyFactor, verifyPasskeySignIn } from "../../server/passkeys/passkey-sign-in.service.ts";
import { listPasskeys, passkeyRegistrationOptions, registerPasskey, removeUserPasskey, renameUserPasskey } from "../../server/passkeys/passkeys.service.ts";
import { signInWithoutPassword } from "../../server/passkeys/passwordless.service.ts";
import { relyingParty } from "../../server/passkeys/relying-party.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.mjs";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The WebAuthn ceremonies against a software authenticator that produces real attestation and
// assertion structures: what is accepted, and each way an answer is refused with nothing changed.

const actor = { ip: "198.51.100.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" };

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return (e as AppError).code;
}

describe.each(DB_KINDS)("passkeys on %s", (kind) => {
  let t: TTestDatabase;
  const rp = relyingParty();
  const user = { id: "ann", name: "ann@example.com", displayName: "Ann Example" };

  beforeEach(async () => {
    t = await installTestDatabase(kind);
    await t.db.prisma.user.create({ data: { id: user.id, instanceId: "ann.1", attrs: { email: { value: "ann@example.com", vrf: true } } }, select: { id: true } });
    await t.db.prisma.user.create({ data: { id: "bob", instanceId: "bob.1" }, select: { id: true } });
  });
  afterEach(() => t.close());

  async function registered(authenticator = new SoftAuthenticator(rp.origin, rp.id)) {
    const options = await passkeyRegistrationOptions(user);
    await registerPasskey(user.id, authenticator.register(options), "Laptop", actor);
    return authenticator;
  }
  const events = async (type: string) => (await t.db.prisma.securityEvent.findMany({ where: { type }, orderBy: { id: "asc" } })).map((e) => ({ subject: e.subject, ...(e.params as object) }));

  it("registers a discoverable passkey with user verification, signs in with it, and tells the person", async () => {
    const options = await passkeyRegistrationOptions(user);
    expect(options).toMatchObject({ rp: { id: rp.id }, user: { name: "ann@example.com", displayName: "Ann Example" }, attestation: "none", authenticatorSelection: { residentKey: "required", userVerification: "required" } });
    // The user handle names no one.
    expect(Buffer.from(options.user.id, "base64url").toString()).not.toContain("ann");
    const authenticator = new SoftAuthenticator(rp.origin, rp.id);
    const view = await registerPasskey(user.id, authenticator.register(options), " Laptop ", actor);
    expect(view).toMatchObject({ id: authenticator.id, name: "Laptop", aaguid: "00000000-0000-0000-0000-000000000000", synced: false, transports: ["internal"] });
    expect(await listPasskeys(user.id)).toEqual([expect.objectContaining({ id: authenticator.id, name: "Laptop", lastUsedAt: null })]);
    expect(JSON.stringify(await listPasskeys(user.id))).not.toMatch(/publicKey/);
    // The next registration excludes it.
    expect((await passkeyRegistrationOptions(user)).excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);

    const signIn = await passkeySignInOptions("flow-1");
    expect(signIn).toMatchObject({ rpId: rp.id, userVerification: "required", allowCredentials: [] });
    expect(await verifyPasskeySignIn("flow-1", authenticator.authenticate(signIn), actor)).toEqual({ userId: "ann", passkeyId: authenticator.id, synced: false, userVerified: true });
    const stored = await t.db.prisma.passkey.findUniqueOrThrow({ where: { id: authenticator.id } });
    expect(stored.counter).toBe(1n);
    expect(stored.lastUsedAt).not.toBeNull();

    expect(await events("passkey.registered")).toEqual([{ subject: "ann", key: authenticator.id, name: "Laptop", aaguid: "00000000-0000-0000-0000-000000000000", synced: false }]);
    expect(await events("passkey.used")).toEqual([{ subject: "ann", key: authenticator.id, as: "signin" }]);
    const notices = await t.db.prisma.outboxMessage.findMany({ where: { purpose: "notice.passkey_added" } });
    expect(notices.map((m) => [m.recipient, m.subject])).toEqual([["ann@example.com", "К учётной записи добавлен ключ входа"]]);
  });

  it("refuses an answer from another origin or for another RP id, or without user verification", async () => {
    const authenticator = new SoftAuthenticator(rp.origin, rp.id);
    for (const bend of [{ origin: "https://evil.example" }, { rpId: "evil.example" }, { uv: false }, { type: "webauthn.get" }]) {
      const options = await passkeyRegistrationOptions(user);
      expect(await codeOf(registerPasskey(user.id, authenticator.register(options, bend), "Laptop", actor))).toBe("passkeys.not_verified");
    }
    expect(await t.db.prisma.passkey.count()).toBe(0);
    expect(await events("passkey.failed")).toHaveLength(4);

    await registered(authenticator);
    for (const bend of [{ origin: "https://evil.example" }, { rpId: "evil.example" }, { uv: false }]) {
      const options = await passkeySignInOptions("flow-1");
      expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(options, bend), actor))).toBe("passkeys.not_verified");
    }
    expect(await events("passkey.used")).toEqual([]);
  });

  it("spends a challenge once, for its own binding only, and not after it expired", async () => {
    const authenticator = await registered();
    const options = await passkeySignInOptions("flow-1");
    const answer = authenticator.authenticate(options);
    // Another sign-in cannot use this flow's challenge; the flow itself can, once.
    expect(await codeOf(verifyPasskeySignIn("flow-2", answer, actor))).toBe("passkeys.challenge_unknown");
    expect(await verifyPasskeySignIn("flow-1", answer, actor)).toMatchObject({ userId: "ann" });
    expect(await codeOf(verifyPasskeySignIn("flow-1", answer, actor))).toBe("passkeys.challenge_unknown");
    // A challenge never handed out, and one answered too late.
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate({ challenge: "bm90LWhhbmRlZC1vdXQ" }), actor))).toBe("passkeys.challenge_unknown");
    const late = await passkeySignInOptions("flow-1");
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(late), actor, new Date(Date.now() + 6 * 60_000)))).toBe("passkeys.challenge_unknown");
    // A registration challenge of one account does not register a passkey on another.
    const forAnn = await passkeyRegistrationOptions(user);
    expect(await codeOf(registerPasskey("bob", new SoftAuthenticator(rp.origin, rp.id).register(forAnn), "Key", actor))).toBe("passkeys.challenge_unknown");
    expect((await runMaintenance(new Date(Date.now() + 6 * 60_000))).webauthnChallenges).toBe(2);
  });

  it("keeps one live challenge per sign-in: asking again replaces the earlier one", async () => {
    const authenticator = await registered();
    const first = await passkeySignInOptions("flow-1");
    const second = await passkeySignInOptions("flow-1");
    expect(await t.db.prisma.webAuthnChallenge.count({ where: { binding: "signin:flow-1" } })).toBe(1);
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(first), actor))).toBe("passkeys.challenge_unknown");
    expect(await verifyPasskeySignIn("flow-1", authenticator.authenticate(second), actor)).toMatchObject({ userId: "ann" });
  });

  it("refuses a locked account's passkey after checking it, recording the refusal, not a use", async () => {
    await t.db.prisma.user.create({ data: { id: "carol", instanceId: "carol.1", locked: true }, select: { id: true } });
    const authenticator = new SoftAuthenticator(rp.origin, rp.id);
    await registerPasskey("carol", authenticator.register(await passkeyRegistrationOptions({ id: "carol", name: "carol", displayName: "Carol" })), "Key", actor);
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(await passkeySignInOptions("flow-1")), actor))).toBe("login.account_locked");
    expect(await events("user.sign_in_failed")).toEqual([expect.objectContaining({ subject: "carol", reason: "account_locked", method: "passkey" })]);
    expect(await events("passkey.used")).toEqual([]);
    expect((await t.db.prisma.passkey.findUniqueOrThrow({ where: { id: authenticator.id } })).lastUsedAt).toBeNull();
  });

  it("lets exactly one of 8 parallel uses of one answer sign in", async () => {
    const authenticator = await registered();
    const options = await passkeySignInOptions("flow-1");
    const answer = authenticator.authenticate(options);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => verifyPasskeySignIn("flow-1", answer, actor)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await events("passkey.used")).toHaveLength(1);
  });

  it("refuses an unknown credential, and a counter that went backwards (a copy), recording both", async () => {
    const authenticator = await registered();
    const stranger = new SoftAuthenticator(rp.origin, rp.id);
    expect(await codeOf(verifyPasskeySignIn("flow-1", stranger.authenticate(await passkeySignInOptions("flow-1")), actor))).toBe("passkeys.unknown_credential");
    expect(await events("passkey.failed")).toEqual([expect.objectContaining({ subject: null, reason: "unknown credential" })]);

    await verifyPasskeySignIn("flow-1", authenticator.authenticate(await passkeySignInOptions("flow-1")), actor);
    await verifyPasskeySignIn("flow-1", authenticator.authenticate(await passkeySignInOptions("flow-1")), actor);
    // A copy of the authenticator made before those two uses presents counter 1 again.
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(await passkeySignInOptions("flow-1"), { counter: 1 }), actor))).toBe("passkeys.counter_regressed");
    expect(await events("passkey.counter_regressed")).toEqual([{ subject: "ann", key: authenticator.id, stored: "2", presented: "1" }]);
    expect((await t.db.prisma.passkey.findUniqueOrThrow({ where: { id: authenticator.id } })).counter).toBe(2n);

    // An authenticator that keeps no counter (0 each time) signs in every time.
    const synced = await registered(new SoftAuthenticator(rp.origin, rp.id, false));
    for (let i = 0; i < 2; i++) expect(await verifyPasskeySignIn("flow-1", synced.authenticate(await passkeySignInOptions("flow-1")), actor)).toMatchObject({ passkeyId: synced.id });
  });

  it("refuses a credential registered already, renames and removes, telling the person", async () => {
    const authenticator = await registered();
    expect(await codeOf(registerPasskey(user.id, authenticator.register(await passkeyRegistrationOptions(user)), "Again", actor))).toBe("passkeys.already_registered");
    const forBob = await passkeyRegistrationOptions({ id: "bob", name: "bob", displayName: "Bob" });
    expect(await codeOf(registerPasskey("bob", authenticator.register(forBob), "Stolen", actor))).toBe("passkeys.already_registered");

    await renameUserPasskey(user.id, authenticator.id, "Work laptop", actor);
    expect((await listPasskeys(user.id))[0]!.name).toBe("Work laptop");
    // Another account's passkey is not found, whatever its id.
    expect(await codeOf(removeUserPasskey("bob", authenticator.id, actor))).toBe("passkeys.not_found");
    expect(await codeOf(renameUserPasskey("bob", authenticator.id, "Mine", actor))).toBe("passkeys.not_found");
    await expect(renameUserPasskey(user.id, authenticator.id, "Line\nSpoofed: yes", actor)).rejects.toBeInstanceOf(ZodError);
    await removeUserPasskey(user.id, authenticator.id, actor);
    expect(await listPasskeys(user.id)).toEqual([]);
    // What the passkey may have signed in ends with it: every token of the account issued before now.
    expect(await t.db.prisma.tokenCutoff.findMany({ where: { userId: user.id }, select: { sessionId: true } })).toEqual([{ sessionId: "" }]);
    expect(await codeOf(verifyPasskeySignIn("flow-1", authenticator.authenticate(await passkeySignInOptions("flow-1")), actor))).toBe("passkeys.unknown_credential");
    expect(await t.db.prisma.outboxMessage.count({ where: { purpose: "notice.passkey_removed" } })).toBe(1);
    expect(await events("passkey.removed")).toEqual([{ subject: "ann", key: authenticator.id, name: "Work laptop" }]);
  });

  it("as the second factor: offers only the account's passkeys, lets one without user verification through, and refuses another account's", async () => {
    const authenticator = await registered();
    expect(await passkeyFactorOptions("bob", { use: "factor", id: "flow-1" })).toBeUndefined();
    const options = (await passkeyFactorOptions(user.id, { use: "factor", id: "flow-1" }))!;
    expect(options).toMatchObject({ rpId: rp.id, userVerification: "preferred", allowCredentials: [{ id: authenticator.id, type: "public-key", transports: ["internal"] }] });
    // A key that only proved presence is the second factor still: the password was the first.
    expect(await verifyPasskeyFactor(user.id, { use: "factor", id: "flow-1" }, authenticator.authenticate(options, { uv: false }), actor)).toMatchObject({ userId: "ann", userVerified: false });
    expect(await events("passkey.used")).toEqual([{ subject: "ann", key: authenticator.id, as: "factor" }]);
    // Ann's passkey is no second factor of Bob's, even on Bob's own challenge; nothing is spent on Ann's.
    await t.db.prisma.passkey.updateMany({ data: { counter: 5n } });
    const bobs = await passkeySignInOptions("flow-2");
    expect(await codeOf(verifyPasskeyFactor("bob", { use: "factor", id: "flow-2" }, authenticator.authenticate(bobs), actor))).toBe("passkeys.challenge_unknown");
    const bobsFlow = (await passkeyFactorOptions(user.id, { use: "factor", id: "flow-3" }))!;
    expect(await codeOf(verifyPasskeyFactor("bob", { use: "factor", id: "flow-3" }, authenticator.authenticate(bobsFlow), actor))).toBe("passkeys.unknown_credential");
    expect((await t.db.prisma.passkey.findUniqueOrThrow({ where: { id: authenticator.id } })).counter).toBe(5n);
    // A challenge of one use is not spent on another: the sign-in's is no second factor's, nor the reverse.
    const signIn = await passkeySignInOptions("flow-5");
    expect(await codeOf(verifyPasskeyFactor(user.id, { use: "factor", id: "flow-5" }, authenticator.authenticate(signIn), actor))).toBe("passkeys.challenge_unknown");
    const factor = (await passkeyFactorOptions(user.id, { use: "factor", id: "flow-6" }))!;
    expect(await codeOf(verifyPasskeySignIn("flow-6", authenticator.authenticate(factor), actor))).toBe("passkeys.challenge_unknown");
    expect(await codeOf(verifyPasskeyFactor(user.id, { use: "step-up", id: "flow-6" }, authenticator.authenticate(factor), actor))).toBe("passkeys.challenge_unknown");
  });

  it("counts as a second-factor method: the factor turns on with only a passkey, and the last method cannot go while it is on", async () => {
    expect(await codeOf(changeAuthModes(user.id, { requiredFactor: 2 }, actor))).toBe("auth_modes.no_second_factor_method");
    const authenticator = await registered();
    expect(await changeAuthModes(user.id, { requiredFactor: 2 }, actor)).toMatchObject({ secondFactor: true });
    expect(await codeOf(removeUserPasskey(user.id, authenticator.id, actor))).toBe("passkeys.last_second_factor");
    expect(await listPasskeys(user.id)).toHaveLength(1);
    // With a generator beside it, either may go, but not both.
    await bindGenerator(user.id, { kind: "totp", prefix: "totp", name: "Phone", seed: new Uint8Array(20).fill(7), algo: "SHA1", digits: 6, period: 30 }, {});
    const [generator] = await generatorsOf(user.id);
    await removeGenerator(user.id, generator!.id, actor);
    expect(await codeOf(removeUserPasskey(user.id, authenticator.id, actor))).toBe("passkeys.last_second_factor");
    // Off again, the passkey may go.
    await changeAuthModes(user.id, { requiredFactor: null }, actor);
    await removeUserPasskey(user.id, authenticator.id, actor);
    expect(await listPasskeys(user.id)).toEqual([]);
  });

  it("gives the password up for a passkey: only with one, once, and then the last passkey stays", async () => {
    await t.db.prisma.user.update({ where: { id: user.id }, data: { passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA" } });
    expect(await codeOf(signInWithoutPassword(user.id, actor))).toBe("passkeys.none_for_passwordless");
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).not.toBeNull();
    const authenticator = await registered();
    await signInWithoutPassword(user.id, actor, "current-session");
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBeNull();
    expect(await events("user.password_removed")).toEqual([{ subject: "ann", reason: "passwordless" }]);
    expect(await t.db.prisma.outboxMessage.count({ where: { purpose: "notice.password_removed" } })).toBe(1);
    // What the password may have signed in ends, but the session the person is using.
    expect((await t.db.prisma.tokenCutoff.findMany({ where: { userId: user.id }, select: { sessionId: true } })).map((c) => c.sessionId)).toContain("");
    expect(await codeOf(signInWithoutPassword(user.id, actor))).toBe("passkeys.no_password");
    // The passkey is now the only way in.
    expect(await codeOf(removeUserPasskey(user.id, authenticator.id, actor, { by: "holder" }))).toBe("passkeys.last_sign_in_method");
    const second = await registered(new SoftAuthenticator(rp.origin, rp.id));
    await removeUserPasskey(user.id, authenticator.id, actor, { by: "holder" });
    expect(await codeOf(removeUserPasskey(user.id, second.id, actor, { by: "holder" }))).toBe("passkeys.last_sign_in_method");
    // An administrator can: a stolen passkey must go, and the person recovers as from a forgotten password.
    await removeUserPasskey(user.id, second.id, actor);
    expect(await listPasskeys(user.id)).toEqual([]);

    // Linked to an external provider, the account still signs in through it: the holder may remove the last passkey.
    const third = await registered(new SoftAuthenticator(rp.origin, rp.id));
    await t.db.prisma.federationProvider.create({ data: { fpType: "oidc", fpName: "linked-idp", clientId: "linked-client" } });
    await t.db.prisma.federatedAccount.create({ data: { fpType: "oidc", fpName: "linked-idp", sid: "ann-at-linked", userId: user.id } });
    await removeUserPasskey(user.id, third.id, actor, { by: "holder" });
    expect(await listPasskeys(user.id)).toEqual([]);
  });

  it("refuses malformed answers before reading them, and spends nothing", async () => {
    const authenticator = await registered();
    const options = await passkeySignInOptions("flow-1");
    const answer = authenticator.authenticate(options);
    for (const bad of [{ ...answer, response: { ...answer.response, clientDataJSON: "!!!" } }, { ...answer, type: "password" }, { ...answer, extra: 1 }, { ...answer, response: { ...answer.response, signature: "A".repeat(2000) } }]) {
      await expect(verifyPasskeySignIn("flow-1", bad, actor)).rejects.toBeInstanceOf(ZodError);
    }
    // Client data that is not JSON names no challenge.
    expect(await codeOf(verifyPasskeySignIn("flow-1", { ...answer, response: { ...answer.response, clientDataJSON: "bm90LWpzb24" } }, actor))).toBe("passkeys.challenge_unknown");
    // The challenge was not spent by any of them.
    expect(await verifyPasskeySignIn("flow-1", answer, actor)).toMatchObject({ userId: "ann" });
  });
});

describe.each(DB_KINDS)("passkeys in the console on %s", (kind) => {
  let t: TTestDatabase;
  const rp = relyingParty();

  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(() => t.close());

  it("lists a user's passkeys to every console role and lets an administrator remove one", async () => {
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    await t.db.prisma.user.create({ data: { id: "ann", instanceId: "ann.1" }, select: { id: true } });
    const authenticator = new SoftAuthenticator(rp.origin, rp.id);
    await registerPasskey("ann", authenticator.register(await passkeyRegistrationOptions({ id: "ann", name: "ann", displayName: "Ann" })), "Phone", actor);
    const caller = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session });
    expect(await caller.console.passkeys.ofUser({ sub: "ann" })).toEqual([expect.objectContaining({ id: authenticator.id, name: "Phone", synced: false })]);
    await caller.console.passkeys.remove({ sub: "ann", id: authenticator.id });
    expect(await caller.console.passkeys.ofUser({ sub: "ann" })).toEqual([]);
    const removed = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { type: "passkey.removed" } });
    expect(removed).toMatchObject({ subject: "ann", params: { key: authenticator.id, name: "Phone" } });
    await expect(caller.console.passkeys.remove({ sub: "ann", id: authenticator.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
