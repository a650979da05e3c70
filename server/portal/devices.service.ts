import type { TEventActor } from "../audit/audit.service.ts";
import { deviceOfKey } from "../sessions/sessions.service.ts";
import type { TUserApp } from "../sessions/user-devices.schemas.ts";
import { devicesOf, removeDeviceOf } from "../sessions/user-devices.service.ts";

export type TPortalDevice = TUserApp & { current: boolean };

/**
 * The signed-in person's devices and browsers (GET …/apps), latest first. The browser asking is
 * marked by its device cookie (idp_device), the key the sign-in page recognises it by.
 */
export async function listOwnDevices(sub: string, deviceKey: string | undefined): Promise<TPortalDevice[]> {
  const [devices, current] = await Promise.all([devicesOf(sub), deviceOfKey(sub, deviceKey)]);
  return devices.map((d) => ({ ...d, current: d.id === current }));
}

/**
 * "Sign out this device", as DELETE …/apps/{id}: its sessions end and their tokens fail at once.
 * The id is looked up among the person's own devices only: another account's is device.not_found.
 */
export async function signOutOwnDevice(sub: string, id: string, actor: TEventActor): Promise<void> {
  await removeDeviceOf(sub, id, actor);
}
