import { randomBytes } from "node:crypto";
import { recordEvent, recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { changeAuthModes, secondFactorRequired } from "../auth-modes/auth-modes.service.ts";
import { dropBackupCodes } from "../backup-codes/backup-codes.service.ts";
import { countPasskeysOf } from "../passkeys/passkeys-of.ts";
import { inTransaction } from "../db/index.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";
import { AppError } from "../errors/app-error.ts";
import { HOTP_LOOK_AHEAD, matchHotpCounter, matchTotpStep, sameCode, type TOtpAlgorithm, type TOtpKey } from "./otp-codes.ts";
import { findPendingOf, insertPending, takePending } from "./otp-pending.repository.ts";
import { unsealSeed, sealSeed } from "./otp-seeds.ts";
import {
  acceptTotpStep, advanceHotpCounter, deleteGenerator, findGeneratorsOf, lockAccount, saveGenerator,
  type TGeneratorRow,
} from "./otp.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredPending } from "./otp-pending.repository.ts";

/*
 * One-time-password generators of an account. Functions here take the account id and who acts; the
 * REST adapters (otp-api.service.ts), the console and the portal only find the account.
 */

export const DEFAULT_TOTP_PREFIX = "totp";
export const DEFAULT_HOTP_PREFIX = "hotp";
export const DEFAULT_TOTP_NAME = "Mobile App (TOTP)";
export const DEFAULT_HOTP_NAME = "Mobile App (HOTP)";
/** A secret handed out for the QR flow must be bound within this time. */
export const PENDING_TTL_MS = 10 * 60_000;
/** What the QR flow hands out: what every authenticator app reads (RFC 6238 defaults, 160-bit seed). */
export const QR_PARAMS = { algo: "SHA1" as const, digits: 6, period: 30, seedBytes: 20 };

/** A binding id: `<prefix>_<subject>`, as the contract forms it. */
export const PREFIX = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;
export const bindingId = (prefix: string, userId: string) => `${prefix}_${userId}`;

export type TOtpBinding = { id: string; len: number; name: string };
export type TOtpGenerator = TOtpBinding & { kind: "totp" | "hotp"; algo: string; period?: number; serial?: string; createdAt: Date; lastUsedAt: Date | null };

export type TNewGenerator = {
  prefix: string;
  name: string;
  seed: Uint8Array;
  algo: TOtpAlgorithm;
  digits: number;
} & ({ kind: "totp"; period: number } | { kind: "hotp"; counter: number; serial?: string });

function keyOf(g: Pick<TGeneratorRow, "seed" | "algo" | "digits">): TOtpKey {
  return { seed: unsealSeed(g.seed), algo: g.algo as TOtpAlgorithm, digits: g.digits };
}

export function toGenerator(g: TGeneratorRow): TOtpGenerator {
  return {
    id: g.id, len: g.digits, name: g.name, kind: g.kind, algo: g.algo, createdAt: g.createdAt, lastUsedAt: g.lastUsedAt,
    ...(g.period !== null ? { period: g.period } : {}),
    ...(g.deviceSerial ? { serial: g.deviceSerial } : {}),
  };
}

/** The account's generators with what an administrator may see of them (never the seed). */
export async function generatorsOf(userId: string): Promise<TOtpGenerator[]> {
  return (await findGeneratorsOf(userId)).map(toGenerator);
}

/**
 * Binds a generator. `lastStep` (TOTP) is the step of the code that proved the binding: that code
 * cannot then sign in as well. A generator bound before under the same id is replaced.
 */
export async function bindGenerator(userId: string, g: TNewGenerator & { lastStep?: number }, actor: TEventActor, note: Record<string, unknown> = {}): Promise<string> {
  const id = bindingId(g.prefix, userId);
  const outcome = await inTransaction(async (tx) => {
    if (!(await lockAccount(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    return saveGenerator(
      {
        id, userId, kind: g.kind, name: g.name, seed: sealSeed(g.seed), algo: g.algo, digits: g.digits,
        period: g.kind === "totp" ? g.period : null,
        counter: g.kind === "hotp" ? g.counter : null,
        lastStep: g.kind === "totp" ? (g.lastStep ?? null) : null,
        deviceSerial: g.kind === "hotp" ? (g.serial ?? null) : null,
      },
      tx,
    );
  });
  await recordEvent(outcome === "created" ? "user.otp_bound" : "user.otp_replaced", { ...actor, subject: userId }, { generator: id, kind: g.kind, ...note });
  await tellAccountHolderOf(userId, { kind: "factor_added", actor, detail: g.name });
  return id;
}

/**
 * Removes a generator. The last one of an account whose second factor is on is refused: removing it
 * would lock the user out of sign-in (or silently weaken it), so the second factor is turned off first.
 */
export async function removeGenerator(userId: string, id: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const removed = await inTransaction(async (tx) => {
    await lockAccount(userId, tx);
    const all = await findGeneratorsOf(userId, tx);
    if (!all.some((g) => g.id === id)) throw new AppError("otp.not_found", { params: { id } });
    // A passkey is a second-factor method too: with one, the last generator may go.
    if (all.length === 1 && (await countPasskeysOf(userId, tx)) === 0 && (await secondFactorRequired(userId, tx))) throw new AppError("otp.last_second_factor", { params: { id } });
    return deleteGenerator(userId, id, tx);
  });
  await recordEvent("user.otp_removed", { ...actor, subject: userId }, { generator: id, kind: removed?.kind, ...note });
}

/**
 * What an administrator does for a person who lost their authenticator: the second factor off, every
 * generator and backup code gone, so the next sign-in asks for the password only and the person binds
 * a new app in the portal. The reason stays in the event (it may name a ticket); the person is told
 * that an administrator did it.
 */
export async function resetSecondFactor(userId: string, reason: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<{ generators: number; backups: number }> {
  // What is removed and the event that says why commit together, and the person is told at once.
  const removed = await inTransaction(async (tx) => {
    if (!(await lockAccount(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    const generators = await findGeneratorsOf(userId, tx);
    for (const g of generators) await deleteGenerator(userId, g.id, tx);
    const counts = { generators: generators.length, backups: await dropBackupCodes(userId, tx) };
    await recordEvents([{ type: "user.second_factor_reset", actor: { ...actor, subject: userId }, params: { reason, ...counts, ...note } }], tx);
    return counts;
  });
  await tellAccountHolderOf(userId, { kind: "second_factor_reset", actor });
  await changeAuthModes(userId, { requiredFactor: null }, actor, { ...note, reason: "second_factor_reset" }, { tell: false });
  return removed;
}

/** The step of `code` for a TOTP key being bound, or wrong_otp_code. */
export function proveTotpCode(key: TOtpKey, period: number, code: string, nowMs = Date.now()): number {
  const step = matchTotpStep(key, period, code, nowMs);
  if (step === undefined) throw new AppError("otp.wrong_code");
  return step;
}

/** A fresh secret for the QR flow, remembered (sealed) for this account until it is bound or expires. */
export async function issuePendingSecret(userId: string, now = new Date()): Promise<Uint8Array> {
  const seed = new Uint8Array(randomBytes(QR_PARAMS.seedBytes));
  await insertPending({ id: randomBytes(12).toString("base64url"), userId, seed: sealSeed(seed), expiresAt: new Date(now.getTime() + PENDING_TTL_MS) }, now);
  return seed;
}

/**
 * QR flow, stage 2: the secret must be one handed out to this account and not yet expired, and the
 * code must be its current one. Wrong code: the secret stays pending, so the user can try again.
 */
export async function bindPendingSecret(userId: string, seed: Uint8Array, code: string, opts: { prefix: string; name: string }, actor: TEventActor): Promise<string> {
  const given = Buffer.from(seed).toString("base64");
  const pending = (await findPendingOf(userId, new Date())).find((p) => sameCode(Buffer.from(unsealSeed(p.seed)).toString("base64"), given));
  if (!pending) throw new AppError("otp.unknown_secret");
  const step = proveTotpCode({ seed, algo: QR_PARAMS.algo, digits: QR_PARAMS.digits }, QR_PARAMS.period, code);
  if (!(await takePending(pending.id))) throw new AppError("otp.unknown_secret");
  return bindGenerator(userId, { ...QR_PARAMS, kind: "totp", prefix: opts.prefix, name: opts.name, seed, lastStep: step }, actor, { via: "qr" });
}

export type TSecondFactorResult = "ok" | "wrong" | "replay";

/** Whether a code of an HOTP generator is one already used (a few presses back). */
function usedHotpCode(key: TOtpKey, code: string, counter: number): boolean {
  const back = Math.min(3, counter);
  return back > 0 && matchHotpCounter(key, code, counter - back, back) !== undefined;
}

/**
 * Checks a second-factor code against every generator of the account. A TOTP code counts once per
 * step (and never after a later step's code); an HOTP code moves the counter past it. No throttling
 * here: the sign-in flow counts "wrong" and "replay" as failures.
 */
export async function verifySecondFactor(userId: string, code: string, now = new Date()): Promise<TSecondFactorResult> {
  let replay = false;
  for (const g of await findGeneratorsOf(userId)) {
    const key = keyOf(g);
    if (g.kind === "totp") {
      const step = matchTotpStep(key, g.period!, code, now.getTime());
      if (step === undefined) continue;
      if (await acceptTotpStep(g.id, step, now)) return "ok";
      replay = true;
    } else {
      const counter = g.counter ?? 0;
      const found = matchHotpCounter(key, code, counter, HOTP_LOOK_AHEAD);
      if (found !== undefined && (await advanceHotpCounter(g.id, counter, found + 1, now))) return "ok";
      if (found !== undefined || usedHotpCode(key, code, counter)) replay = true;
    }
  }
  return replay ? "replay" : "wrong";
}
