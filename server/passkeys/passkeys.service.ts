import { createHmac } from "node:crypto";
import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { keyFor } from "../crypto/keys.ts";
import { AppError } from "../errors/app-error.ts";
import { tellAccountHolder } from "../notices/account-notices.ts";
import { invalidateUserTokens } from "../oauth/grants/token-invalidation.service.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { secondFactorRequired } from "../auth-modes/auth-modes.service.ts";
import { inTransaction } from "../db/index.ts";
import { countGeneratorsOf, lockAccount } from "../otp/otp-generators.service.ts";
import { hasPassword } from "../passwords/password-removal.service.ts";
import { bindingsOf } from "../federation/bindings.service.ts";
import { authenticatorName } from "./authenticator-names.ts";
import { loadIntoMetadataService } from "./passkey-metadata.ts";
import { getPasskeyMetadata, getPasskeyPolicy } from "./passkey-policy.service.ts";
import { deletePasskey, findPasskeysOf, insertChallenge, insertPasskey, renamePasskey, spendChallenge, type TPasskeyRow } from "./passkeys.repository.ts";
import { ZPasskeyName, ZRegistrationAnswer } from "./passkeys.schemas.ts";
import { checkAttachment, checkAttestation, registrationSelection } from "./registration-policy.ts";
import { CHALLENGE_TTL_MS, relyingParty } from "./relying-party.ts";
import { claimedChallenge, verifiedOr } from "./webauthn-answer.ts";

/*
 * Passkeys of an account: registered (a challenge handed out, the authenticator's answer verified
 * against it), listed, renamed and removed. Registration asks for a discoverable credential with
 * user verification, so the passkey alone can sign the person in later (passkey-sign-in.service.ts);
 * the passkey policy (passkey-policy.service.ts) may turn registration off, relax user verification,
 * restrict the attachment, and ask for attestation by an allowed authenticator model.
 */

// What other capabilities use of this one's data: they come through here, never its repository.
export { deleteExpiredChallenges } from "./passkeys.repository.ts";

/** A passkey as its holder and the console see it: never its public key. */
export type TPasskeyView = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; aaguid: string; synced: boolean; transports: string[] };

export function toPasskeyView(row: TPasskeyRow): TPasskeyView {
  return { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, aaguid: row.aaguid, synced: row.deviceType === "multiDevice" || row.backedUp, transports: row.transports };
}

/**
 * The WebAuthn user handle of an account: the same for every passkey of it (an authenticator then
 * keeps one passkey per account), and no identifier of the person (the spec asks for none).
 */
function userHandle(userId: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", keyFor("credential-cache")).update(`webauthn-user:${userId}`).digest());
}

/**
 * The account as an authenticator lists its passkey: by its e-mail, phone or subject, and by the
 * person's name, so someone with several accounts tells them apart.
 */
export function passkeyUserOf(account: { id: string; attrs: Record<string, unknown> }): { id: string; name: string; displayName: string } {
  const valueOf = (a: unknown) => (typeof a === "object" && a !== null && typeof (a as { value?: unknown }).value === "string" ? (a as { value: string }).value : undefined);
  const textOf = (a: unknown) => (typeof a === "string" && a ? a : undefined);
  const name = valueOf(account.attrs.email) ?? valueOf(account.attrs.phone_number) ?? account.id;
  const displayName = [textOf(account.attrs.given_name), textOf(account.attrs.family_name)].filter(Boolean).join(" ") || name;
  return { id: account.id, name, displayName };
}

/** Whether people may add passkeys now (the portal hides "add a passkey" otherwise). */
export async function passkeysOffered(): Promise<boolean> {
  return (await getPasskeyPolicy()).offered;
}

/**
 * What a registration challenge is bound to: by default the account (the portal, where the person
 * is signed in); an administrator's link or a sign-up binds it to itself, so only an answer given
 * through that link or sign-up registers.
 */
export type TRegistrationBinding = {
  binding?: string;
  now?: Date;
  /**
   * User verification required whatever the policy says: where the new passkey is the account's
   * way in (a link, a sign-up), so a passkey sign-in with it is the two factors it claims to be.
   */
  requireUserVerification?: boolean;
};

/** Options for navigator.credentials.create(): the account's passkeys excluded, so one is not registered twice. */
export async function passkeyRegistrationOptions(user: { id: string; name: string; displayName: string }, opts: TRegistrationBinding = {}): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { binding = user.id, now = new Date(), requireUserVerification = false } = opts;
  const policy = await getPasskeyPolicy();
  if (!policy.offered) throw new AppError("passkeys.not_offered");
  const rp = relyingParty();
  const existing = await findPasskeysOf(user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.name,
    userDisplayName: user.displayName,
    userID: userHandle(user.id) as Uint8Array<ArrayBuffer>,
    attestationType: policy.attestation,
    timeout: CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { ...registrationSelection(policy), ...(requireUserVerification ? { userVerification: "required" as const } : {}) },
  });
  await insertChallenge({ challenge: options.challenge, purpose: "register", binding, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
  return options;
}

/**
 * Verifies the authenticator's answer to this account's registration challenge (spent first, so an
 * answer is used once), stores the passkey, and tells the person. Refused: an answer to another
 * challenge or account, another origin or RP id, no user verification (unless the policy only prefers
 * it), a credential registered already, and whatever the passkey policy refuses.
 */
export async function registerPasskey(userId: string, rawAnswer: unknown, rawName: unknown, actor: TEventActor, opts: TRegistrationBinding = {}): Promise<TPasskeyView> {
  const { binding = userId, now = new Date(), requireUserVerification = false } = opts;
  const answer = ZRegistrationAnswer.parse(rawAnswer);
  const name = ZPasskeyName.parse(rawName);
  // Read once: the options were made under a policy, the answer is judged by the one in force now.
  const [policy, metadata] = await Promise.all([getPasskeyPolicy(), getPasskeyMetadata()]);
  if (!policy.offered) throw new AppError("passkeys.not_offered");
  const challenge = claimedChallenge(answer.response.clientDataJSON);
  if (!(await spendChallenge(challenge, "register", binding, now))) throw new AppError("passkeys.challenge_unknown");
  const who = { ...actor, subject: userId };
  await checkAttachment(policy, answer, who);
  await loadIntoMetadataService(metadata);
  const rp = relyingParty();
  const info = await verifiedOr(
    async () =>
      (
        await verifyRegistrationResponse({
          response: answer as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: requireUserVerification || policy.userVerification === "required",
        })
      ).registrationInfo,
    { actor: who, params: { ceremony: "register" } },
  );
  await checkAttestation(policy, metadata, info, who);
  // The id stored is the one the authenticator signed: it must be the one the answer names, and fit an index.
  if (info.credential.id !== answer.id || info.credential.id.length > 1366) {
    await recordEvent("passkey.failed", { ...actor, subject: userId }, { ceremony: "register", reason: "credential id does not match the answer" });
    throw new AppError("passkeys.not_verified");
  }
  const row = {
    id: info.credential.id,
    userId,
    name,
    publicKey: info.credential.publicKey,
    counter: BigInt(info.credential.counter),
    transports: info.credential.transports ?? [],
    aaguid: info.aaguid,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  };
  if (!(await insertPasskey(row))) throw new AppError("passkeys.already_registered");
  const view = toPasskeyView({ ...row, createdAt: now, lastUsedAt: null });
  // `key`: the credential id (no secret), under a name the audit trail's redaction does not hide.
  await recordEvent("passkey.registered", { ...actor, subject: userId }, { key: row.id, name, aaguid: row.aaguid, synced: view.synced });
  await tellHolder(userId, "passkey_added", name, actor);
  return view;
}

export async function listPasskeys(userId: string): Promise<TPasskeyView[]> {
  return (await findPasskeysOf(userId)).map(toPasskeyView);
}

/** The account's passkeys with their authenticator's name (null when neither the metadata nor the bundled table knows it), for the portal and the console. */
export async function listNamedPasskeys(userId: string): Promise<(TPasskeyView & { authenticator: string | null })[]> {
  const names = new Map(((await getPasskeyMetadata())?.entries ?? []).map((e) => [e.aaguid, e.name]));
  return (await listPasskeys(userId)).map((p) => ({ ...p, authenticator: authenticatorName(p.aaguid, names) }));
}

export async function renameUserPasskey(userId: string, id: string, rawName: unknown, actor: TEventActor): Promise<void> {
  const name = ZPasskeyName.parse(rawName);
  if (!(await renamePasskey(userId, id, name))) throw new AppError("passkeys.not_found", { params: { id } });
  await recordEvent("passkey.renamed", { ...actor, subject: userId }, { key: id, name });
}

/**
 * Removes one of the account's passkeys, ends what it may have signed in (a passkey is a whole
 * sign-in: a stolen one's sessions and tokens must not outlive it), and tells the person. The
 * person's own session survives when they remove it themselves (`keepSession`). Not the account's
 * last second-factor method while a second factor is required (as for generators). The holder
 * cannot remove the last passkey of an account without a password or a linked external account
 * (its only way in); an
 * administrator can (a stolen passkey must go), and the person then recovers as from a forgotten
 * password.
 */
export async function removeUserPasskey(userId: string, id: string, actor: TEventActor, opts: { keepSession?: string; by?: "holder" | "administrator" } = {}): Promise<void> {
  const { keepSession, by = "administrator" } = opts;
  // An account linked to an external provider still signs in through it. (Read before the
  // transaction: the embedded database has one connection, which the transaction holds.)
  const linked = by === "holder" && (await bindingsOf(userId)).length > 0;
  // The account row is locked, as when a generator goes, so the last two methods cannot go in parallel.
  const name = await inTransaction(async (tx) => {
    await lockAccount(userId, tx);
    const all = await findPasskeysOf(userId, tx);
    const passkey = all.find((p) => p.id === id);
    if (!passkey) throw new AppError("passkeys.not_found", { params: { id } });
    if (by === "holder" && all.length === 1 && !linked && !(await hasPassword(userId, tx))) throw new AppError("passkeys.last_sign_in_method", { params: { id } });
    if (all.length === 1 && (await countGeneratorsOf(userId, tx)) === 0 && (await secondFactorRequired(userId, tx))) throw new AppError("passkeys.last_second_factor", { params: { id } });
    await deletePasskey(userId, id, tx);
    return passkey.name;
  });
  await invalidateUserTokens(userId, { keepSessions: keepSession ? [keepSession] : [] });
  await recordEvent("passkey.removed", { ...actor, subject: userId }, { key: id, name });
  await tellHolder(userId, "passkey_removed", name, actor);
}

async function tellHolder(userId: string, kind: "passkey_added" | "passkey_removed", name: string, actor: TEventActor): Promise<void> {
  const snapshot = await accountSnapshot(userId);
  if (snapshot) await tellAccountHolder(snapshot.account, { kind, actor, detail: name });
}
