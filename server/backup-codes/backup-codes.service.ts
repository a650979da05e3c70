import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";
import { BACKUP_CODE_COUNT, hashBackupCode, newBackupCode, normaliseBackupCode } from "./backup-codes.ts";
import { countCodes, deleteCodes, replaceCodes, useCode, type TBackupCodeCount } from "./backup-codes.repository.ts";

export { looksLikeBackupCode } from "./backup-codes.ts";
export type { TBackupCodeCount } from "./backup-codes.repository.ts";

/*
 * Backup codes of the second factor: what gets a person in when the phone with the authenticator
 * app is lost. A set is made when the person turns the second factor on (or asks for a new one) and
 * shown to them that once; the service keeps hashes only. Each code signs in once, in place of a
 * generator's code, on the same throttle counters. Making a set, and using a code, tell the person.
 */

/** A new set for the account, replacing the one it had; the codes in the clear, to show once. */
export async function createBackupCodes(userId: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < BACKUP_CODE_COUNT) codes.add(newBackupCode());
  const list = [...codes];
  await inTransaction((tx) => replaceCodes(userId, list.map((c) => hashBackupCode(userId, normaliseBackupCode(c)!)), tx));
  await recordEvent("user.backup_codes_created", { ...actor, subject: userId }, { count: list.length, ...note });
  await tellAccountHolderOf(userId, { kind: "backup_codes_new", actor });
  return list;
}

/** Whether `typed` is an unused code of the account's set, using it up if so. */
export async function useBackupCode(userId: string, typed: string, actor: TEventActor, now = new Date()): Promise<boolean> {
  const code = normaliseBackupCode(typed);
  if (!code || !(await useCode(userId, hashBackupCode(userId, code), now))) return false;
  const left = await countCodes(userId);
  await recordEvent("user.backup_code_used", { ...actor, subject: userId }, { left: left.unused });
  await tellAccountHolderOf(userId, { kind: "backup_code_used", actor, detail: `${left.unused} / ${left.total}` });
  return true;
}

/** How many codes of the set are left: what the portal and the console show, never the codes. */
export function backupCodesOf(userId: string): Promise<TBackupCodeCount> {
  return countCodes(userId);
}

/** Drops the account's set, in the transaction of a second-factor reset. */
export function dropBackupCodes(userId: string, tx: TTx): Promise<number> {
  return deleteCodes(userId, tx);
}
