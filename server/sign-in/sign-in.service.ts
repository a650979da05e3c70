import { normalizeEmail, normalizePhone } from "../attributes/attribute-values.ts";
import { recordEvent, type TEventActor, type TPendingEvent } from "../audit/audit.service.ts";
import { hashSecret, needsRehash } from "../crypto/password-hash.ts";
import { updateCredentials } from "../users/users.service.ts";
import { findSignInCandidates, type TSignInCandidate } from "./sign-in.repository.ts";
import { deviceOfKey } from "../sessions/sessions.service.ts";
import { signInKeys } from "./throttle-keys.ts";
import { giveBackAttempt, reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "./throttle.service.ts";
import { checkDirectoryAccount, signInFromDirectories, type TDirectoryVerdict } from "../directories/directory-sign-in.service.ts";
import { verifyPassword } from "./verification-gate.ts";

/** Longer input cannot be valid; refusing it early spares the password hash needless work. */
export const MAX_IDENTIFIER = 254;
export const MAX_PASSWORD = 1024;

export type TSignInResult =
  /** `events` are written with the session the sign-in starts (see startSession). */
  | { ok: true; userId: string; amr: string[]; events: TPendingEvent[] }
  /** Unknown account and wrong password alike: telling them apart would enumerate accounts. */
  | { ok: false; reason: "invalid_credentials" }
  | { ok: false; reason: "locked_out"; retryAfterS: number }
  /** Said only after the password was right, so it reveals nothing a guesser does not already know. */
  | { ok: false; reason: "account_locked" }
  /** The directory that checks the account's password has it disabled or locked. */
  | { ok: false; reason: "directory_disabled" }
  /** The directory that checks the password cannot be reached: the attempt does not count. */
  | { ok: false; reason: "directory_unavailable" };

const MATCH_ORDER: TSignInCandidate["matchedBy"][] = ["sub", "login", "email", "phone"];

/** An identifier as the lookup reads it: the text, and the e-mail or phone it is once normalised. */
function readIdentifier(identifier: string): { text: string; email?: string; phone?: string } {
  const text = identifier.trim();
  const email = text.includes("@") ? normalizeEmail(text)?.toLowerCase() : undefined;
  const phone = /^[+\d\s()-]+$/.test(text) ? normalizePhone(text) : undefined;
  return { text, email, phone };
}

/** The account an identifier names: a sub wins over an administrator's login, over an e-mail, over a phone. */
async function findAccountFor(identifier: ReturnType<typeof readIdentifier>): Promise<TSignInCandidate | undefined> {
  const found = await findSignInCandidates(identifier);
  return found.sort((a, b) => MATCH_ORDER.indexOf(a.matchedBy) - MATCH_ORDER.indexOf(b.matchedBy))[0];
}

type TThrottle = ReturnType<typeof signInKeys>;

/** The outcome of a password a directory checked, settled and recorded as a local one is. */
async function settleDirectoryVerdict(v: Exclude<TDirectoryVerdict, { kind: "not_found" }>, account: TSignInCandidate | undefined, t: TThrottle, who: TEventActor): Promise<TSignInResult> {
  const actor = { ...who, subject: v.userId ?? who.subject };
  const directory = v.directoryId;
  switch (v.kind) {
    case "unavailable":
      await giveBackAttempt(t.keys);
      await recordEvent("user.sign_in_failed", actor, { reason: "directory_unavailable", directory });
      return { ok: false, reason: "directory_unavailable" };
    case "wrong_password":
      await settleFailedAttempt(t.keys);
      await recordEvent("user.sign_in_failed", actor, { reason: "bad_password", directory });
      return { ok: false, reason: "invalid_credentials" };
    case "disabled":
      await settleFailedAttempt(t.keys);
      await recordEvent("user.sign_in_failed", actor, { reason: "directory_disabled", directory });
      return { ok: false, reason: "directory_disabled" };
    case "ok": {
      await settleSuccessfulAttempt(t.own, t.others);
      if (account?.locked) {
        await recordEvent("user.sign_in_failed", actor, { reason: "account_locked", directory });
        return { ok: false, reason: "account_locked" };
      }
      const subject = { ...who, subject: v.userId };
      const created: TPendingEvent[] = v.created ? [{ type: "user.created", actor: subject, params: { by: "directory", directory } }] : [];
      return { ok: true, userId: v.userId, amr: ["pwd"], events: [...created, { type: "user.signed_in", actor: subject, params: { method: "pwd", by: account?.matchedBy ?? "directory", directory } }] };
    }
  }
}

/**
 * Checks an identifier (sub, e-mail or phone 7XXXXXXXXXX) and a password. Unknown accounts take the
 * same path as known ones (a throttle counter of their own, a password check against a dummy hash),
 * so neither the answer nor its timing tells them apart. Every outcome is an audit event.
 */
export async function checkCredentials(input: { identifier: string; password: string; deviceKey?: string }, actor: TEventActor): Promise<TSignInResult> {
  const identifier = readIdentifier(input.identifier);
  const account = await findAccountFor(identifier);
  // An unknown identifier is counted as the lookup read it: "+7 900 …" and "7900…" are one phone.
  const counted = account ? `user:${account.id}` : `id:${identifier.email ?? identifier.phone ?? identifier.text.toLowerCase()}`;
  const { keys, own, others } = signInKeys(counted, actor.ip, account ? await deviceOfKey(account.id, input.deviceKey) : null);
  const who = { ...actor, subject: account?.id };
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) {
    await recordEvent("user.sign_in_failed", who, { reason: "locked_out", retryAfter: reserved.retryAfterS });
    return { ok: false, reason: "locked_out", retryAfterS: reserved.retryAfterS };
  }
  // A directory's account is checked there; an identifier no account has may be a directory's person.
  const directory = account ? await checkDirectoryAccount(account.id, input.password, who) : await signInFromDirectories(identifier.text, input.password, who);
  if (directory && directory.kind !== "not_found") return settleDirectoryVerdict(directory, account, { keys, own, others }, who);
  const hash = account?.passwordHash ?? null;
  if (!(await verifyPassword(hash, input.password)) || !account) {
    await settleFailedAttempt(keys);
    await recordEvent("user.sign_in_failed", who, { reason: account ? "bad_password" : "unknown_account" });
    return { ok: false, reason: "invalid_credentials" };
  }
  await settleSuccessfulAttempt(own, others);
  if (account.locked) {
    await recordEvent("user.sign_in_failed", who, { reason: "account_locked" });
    return { ok: false, reason: "account_locked" };
  }
  // An imported hash (bcrypt, weaker argon2) is replaced by today's while the password is at hand.
  if (needsRehash(hash!)) await updateCredentials(account.id, { passwordHash: await hashSecret(input.password) });
  return { ok: true, userId: account.id, amr: ["pwd"], events: [{ type: "user.signed_in", actor: who, params: { method: "pwd", by: account.matchedBy } }] };
}
