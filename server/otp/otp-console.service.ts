import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import { changeAuthModes, readAuthModes, type TAuthModes, type TAuthModesChange } from "../auth-modes/auth-modes.service.ts";
import { backupCodesOf, type TBackupCodeCount } from "../backup-codes/backup-codes.service.ts";
import { readAccount } from "../users/users.service.ts";
import type { TDeviceFormat } from "./device-files.ts";
import { listDevices, type TDeviceListRow } from "./otp-devices.repository.ts";
import { loadDeviceFile, type TDeviceLoadSummary } from "./otp-devices.service.ts";
import { generatorsOf, removeGenerator, resetSecondFactor, type TOtpGenerator } from "./otp.service.ts";

// The console's view of one-time passwords: the same rules as the REST operations, an administrator acting.

export const DEVICE_PAGE_SIZE = 50;

export async function listDevicePage(search: string | undefined, page: number): Promise<{ rows: TDeviceListRow[]; total: number; pageSize: number }> {
  const { rows, total } = await listDevices({ search: search?.trim() || undefined, take: DEVICE_PAGE_SIZE, skip: page * DEVICE_PAGE_SIZE });
  return { rows, total, pageSize: DEVICE_PAGE_SIZE };
}

export function uploadDeviceFile(format: TDeviceFormat, content: string, admin: TEventActor): Promise<TDeviceLoadSummary> {
  return loadDeviceFile(format, content, admin, adminNote(admin));
}

/** A user's second factor as the console shows it: backup codes only counted, never shown. */
export type TUserOtpState = { generators: TOtpGenerator[]; modes: TAuthModes; backupCodes: TBackupCodeCount };

export async function readUserOtpState(sub: string): Promise<TUserOtpState> {
  const account = await readAccount(sub);
  const [generators, modes, backupCodes] = await Promise.all([generatorsOf(account.id), readAuthModes(account.id), backupCodesOf(account.id)]);
  return { generators, modes, backupCodes };
}

export async function resetUserSecondFactor(sub: string, reason: string, admin: TEventActor): Promise<{ generators: number; backups: number }> {
  return resetSecondFactor((await readAccount(sub)).id, reason, admin, adminNote(admin));
}

export async function removeUserGenerator(sub: string, id: string, admin: TEventActor): Promise<void> {
  await removeGenerator((await readAccount(sub)).id, id, admin, adminNote(admin));
}

export async function changeUserAuthModes(sub: string, change: TAuthModesChange, admin: TEventActor): Promise<TAuthModes> {
  return changeAuthModes((await readAccount(sub)).id, change, admin, adminNote(admin));
}
