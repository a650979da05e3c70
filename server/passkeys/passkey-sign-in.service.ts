import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { findPasskey, findPasskeysOf, insertChallenge, recordPasskeyUse, spendChallenge } from "./passkeys.repository.ts";
import { ZAuthenticationAnswer } from "./passkeys.schemas.ts";
import { CHALLENGE_TTL_MS, relyingParty } from "./relying-party.ts";
import { claimedChallenge, verifiedOr } from "./webauthn-answer.ts";

export { answerFromField } from "./webauthn-answer.ts";

/*
 * Signing in with a passkey: a challenge bound to the sign-in that asked for it (a flow, a step-up),
 * answered by any discoverable passkey, so no login needs to be typed. Who signs in is the account
 * the credential belongs to. User verification is required: the passkey is a whole sign-in by itself.
 *
 * As the second factor (after a password), the challenge lists the account's own passkeys and asks
 * for user verification without requiring it: the password was the first factor, the key's
 * possession is the second. An answer from another account's passkey is refused.
 *
 * Every challenge is bound to what asked for it, under a name of its use (`signin:` and the flow,
 * `factor:` and the flow, `step-up:` and the session), so that one handed out for one use cannot
 * be spent on another.
 */

/** What a challenge for an account's own passkeys was asked for: a sign-in's second step, or a step-up of a session. */
export type TFactorUse = { use: "factor" | "step-up"; id: string };
const bindingOf = (f: TFactorUse) => `${f.use}:${f.id}`;

/** Options for navigator.credentials.get() with no credential listed: the browser offers the person's passkeys. */
export async function passkeySignInOptions(flowId: string, now = new Date()): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({ rpID: relyingParty().id, userVerification: "required", timeout: CHALLENGE_TTL_MS, allowCredentials: [] });
  await insertChallenge({ challenge: options.challenge, purpose: "authenticate", binding: `signin:${flowId}`, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
  return options;
}

/** Options listing the passkeys of one account, for its second factor or a step-up; none when it has no passkey. */
export async function passkeyFactorOptions(userId: string, asked: TFactorUse, now = new Date()): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  const passkeys = await findPasskeysOf(userId);
  if (passkeys.length === 0) return undefined;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    userVerification: "preferred",
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports })),
  });
  await insertChallenge({ challenge: options.challenge, purpose: "authenticate", binding: bindingOf(asked), expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
  return options;
}

/** Whether the account has a passkey to offer as its second factor. */
export async function hasPasskey(userId: string): Promise<boolean> {
  return (await findPasskeysOf(userId)).length > 0;
}

export type TPasskeySignIn = { userId: string; passkeyId: string; synced: boolean; userVerified: boolean };

/**
 * Verifies an answer to the challenge handed out for the sign-in `flowId`. The challenge is spent before
 * anything else, so of any number of parallel answers one gets through. Refused (and recorded): an
 * unknown credential, another origin or RP id, no user verification, a signature counter that did
 * not move forward (a copied authenticator; its passkey is not used, and the event says so).
 */
export function verifyPasskeySignIn(flowId: string, rawAnswer: unknown, actor: TEventActor, now = new Date()): Promise<TPasskeySignIn> {
  return verifyAssertion(`signin:${flowId}`, rawAnswer, actor, { requireUserVerification: true }, now);
}

/** The same for `userId`'s second factor or step-up: one of its own passkeys, user verification asked but not required. */
export function verifyPasskeyFactor(userId: string, asked: TFactorUse, rawAnswer: unknown, actor: TEventActor, now = new Date()): Promise<TPasskeySignIn> {
  return verifyAssertion(bindingOf(asked), rawAnswer, actor, { requireUserVerification: false, userId }, now);
}

async function verifyAssertion(binding: string, rawAnswer: unknown, actor: TEventActor, want: { requireUserVerification: boolean; userId?: string }, now: Date): Promise<TPasskeySignIn> {
  const answer = ZAuthenticationAnswer.parse(rawAnswer);
  const challenge = claimedChallenge(answer.response.clientDataJSON);
  if (!(await spendChallenge(challenge, "authenticate", binding, now))) throw new AppError("passkeys.challenge_unknown");
  const passkey = await findPasskey(answer.id);
  // Another account's passkey is, for this account's second factor, no passkey at all.
  if (!passkey || (want.userId !== undefined && passkey.userId !== want.userId)) {
    await recordEvent("passkey.failed", { ...actor, subject: want.userId }, { ceremony: "authenticate", reason: "unknown credential", key: answer.id.slice(0, 64) });
    throw new AppError("passkeys.unknown_credential");
  }
  const rp = relyingParty();
  const info = await verifiedOr(
    async () => {
      const verified = await verifyAuthenticationResponse({
        response: answer as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        // The counter is compared here rather than by the library, so a regression is told apart and recorded.
        credential: { id: passkey.id, publicKey: new Uint8Array(passkey.publicKey), counter: 0, transports: passkey.transports },
        requireUserVerification: want.requireUserVerification,
      });
      return verified.verified ? verified.authenticationInfo : undefined;
    },
    { actor: { ...actor, subject: passkey.userId }, params: { ceremony: "authenticate", key: passkey.id } },
  );
  // A locked account does not sign in by any method; told only now, to someone holding its passkey.
  const account = (await accountSnapshot(passkey.userId))?.account;
  if (!account || account.locked) {
    await recordEvent("user.sign_in_failed", { ...actor, subject: passkey.userId }, { reason: "account_locked", method: "passkey" });
    throw new AppError("login.account_locked");
  }
  const counter = BigInt(info.newCounter);
  // Per the spec: an authenticator that keeps a counter must show it higher each time; 0 and 0 is one that keeps none.
  const regressed = (counter > 0n || passkey.counter > 0n) && counter <= passkey.counter;
  if (regressed || !(await recordPasskeyUse(passkey.id, passkey.counter, counter, info.credentialBackedUp, now))) {
    await recordEvent("passkey.counter_regressed", { ...actor, subject: passkey.userId }, { key: passkey.id, stored: passkey.counter.toString(), presented: counter.toString() });
    throw new AppError("passkeys.counter_regressed");
  }
  await recordEvent("passkey.used", { ...actor, subject: passkey.userId }, { key: passkey.id, as: binding.slice(0, binding.indexOf(":")) });
  return { userId: passkey.userId, passkeyId: passkey.id, synced: info.credentialDeviceType === "multiDevice", userVerified: info.userVerified };
}
