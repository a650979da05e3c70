import type { TEventActor } from "../audit/audit.service.ts";
import { changeAuthModes, readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { backupCodesOf, createBackupCodes, type TBackupCodeCount } from "../backup-codes/backup-codes.service.ts";
import { AppError } from "../errors/app-error.ts";
import { otpauthUri } from "../otp/otp-api.service.ts";
import { decodeBase32, encodeBase32 } from "../otp/otp-codes.ts";
import { bindPendingSecret, DEFAULT_TOTP_NAME, DEFAULT_TOTP_PREFIX, generatorsOf, issuePendingSecret, removeGenerator, type TOtpGenerator } from "../otp/otp.service.ts";

// The portal's second-factor page: the person's own generators, with the same rules as the REST QR flow.

export type TOwnOtpState = {
  generators: Pick<TOtpGenerator, "id" | "name" | "kind" | "len" | "createdAt" | "lastUsedAt">[];
  secondFactor: boolean;
  backupCodes: TBackupCodeCount;
};

export async function readOwnOtpState(sub: string): Promise<TOwnOtpState> {
  const [generators, modes, backupCodes] = await Promise.all([generatorsOf(sub), readAuthModes(sub), backupCodesOf(sub)]);
  return { generators: generators.map(({ id, name, kind, len, createdAt, lastUsedAt }) => ({ id, name, kind, len, createdAt, lastUsedAt })), secondFactor: modes.secondFactor, backupCodes };
}

/** Stage 1: a new secret, as the URI the page draws as a QR code and as text to type in. */
export async function startOwnTotp(sub: string): Promise<{ otpauthUri: string; base32Secret: string }> {
  const seed = await issuePendingSecret(sub);
  return { otpauthUri: otpauthUri(seed, sub), base32Secret: encodeBase32(seed) };
}

/** What turning the second factor on hands back: the backup codes, shown this once. */
export type TTurnedOn = { secondFactor: boolean; backupCodes?: string[] };

/**
 * Stage 2: binds the secret with its current code, as `totp_<sub>` (an authenticator app bound before
 * is replaced). With `turnOn`, the second factor is turned on in the same step, with its backup codes:
 * binding an app is why people come to this page.
 */
export async function finishOwnTotp(sub: string, input: { base32Secret: string; otpCode: string; name?: string; turnOn?: boolean }, actor: TEventActor): Promise<TTurnedOn> {
  const seed = decodeBase32(input.base32Secret);
  if (!seed) throw new AppError("otp.unknown_secret");
  await bindPendingSecret(sub, seed, input.otpCode, { prefix: DEFAULT_TOTP_PREFIX, name: input.name?.trim() || DEFAULT_TOTP_NAME }, { ...actor, subject: sub });
  if (!input.turnOn) return { secondFactor: (await readAuthModes(sub)).secondFactor };
  return setOwnSecondFactor(sub, true, actor);
}

export async function removeOwnGenerator(sub: string, id: string, actor: TEventActor): Promise<void> {
  await removeGenerator(sub, id, actor, { by: "portal" });
}

/** Turning it on (when it was off) makes a new set of backup codes; turning it off drops the set (auth-modes.service.ts). */
export async function setOwnSecondFactor(sub: string, on: boolean, actor: TEventActor): Promise<TTurnedOn> {
  const before = (await readAuthModes(sub)).secondFactor;
  const secondFactor = (await changeAuthModes(sub, { requiredFactor: on ? 2 : null }, actor, { by: "portal" })).secondFactor;
  if (!secondFactor || before) return { secondFactor };
  return { secondFactor, backupCodes: await createBackupCodes(sub, actor, { by: "portal" }) };
}

/** A new set of backup codes, the old set no longer working. */
export async function renewOwnBackupCodes(sub: string, actor: TEventActor): Promise<string[]> {
  return createBackupCodes(sub, actor, { by: "portal" });
}
