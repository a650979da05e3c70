import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import { readAccount } from "../users/users.service.ts";
import type { TUserApp } from "./user-devices.schemas.ts";
import { devicesOf, endSessionsOf, removeDeviceOf } from "./user-devices.service.ts";

// The console's view of a user's sign-in state: the same rules as GET|DELETE …/apps and …/sessions/reset.

export async function listUserDevices(sub: string): Promise<TUserApp[]> {
  return devicesOf((await readAccount(sub)).id);
}

/** "Sign out this device": its sessions end, their tokens fail at once. */
export async function signOutDevice(sub: string, deviceId: string, admin: TEventActor): Promise<void> {
  const account = await readAccount(sub);
  await removeDeviceOf(account.id, deviceId, admin, adminNote(admin));
}

/** "End all sessions": every session of the user ends and every token issued before fails. */
export async function endAllSessions(sub: string, admin: TEventActor): Promise<void> {
  const account = await readAccount(sub);
  await endSessionsOf(account.id, undefined, admin, adminNote(admin));
}
