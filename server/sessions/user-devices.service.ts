import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { invalidateSessionTokens, invalidateUserTokens } from "../oauth/grants/token-invalidation.service.ts";
import { accountOfInstance, accountOfSubject } from "../users/subject-param.ts";
import { deleteDeviceOf, deleteUserSessions, findDevicesOf, findSessionIdsOfDevice, type TDeviceRow } from "./sessions.repository.ts";
import type { TUserApp } from "./user-devices.schemas.ts";

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

function toUserApp(d: TDeviceRow): TUserApp {
  return { id: d.id, kind: d.kind as TUserApp["kind"], name: d.name, firstSeen: unix(d.firstSeenAt), lastSeen: unix(d.lastSeenAt), lastIp: d.lastIp };
}

/*
 * The rules live in the functions below, which take the account id and who acts; the REST adapters
 * (a TRequestContext) and the console (devices-console.service.ts, an administrator) only find the
 * account and say who they are. `note` adds to the event's params (the console names the administrator).
 */

/** The devices and browsers the user signed in from, latest first. */
export async function devicesOf(userId: string): Promise<TUserApp[]> {
  return (await findDevicesOf(userId)).map(toUserApp);
}

/**
 * Ends the user's browser sessions and invalidates every token issued before. The device
 * `keepDevice` names keeps its sessions and their tokens; an id that is not one of the user's
 * devices keeps nothing.
 */
export async function endSessionsOf(userId: string, keepDevice: string | undefined, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const kept = keepDevice ? await findSessionIdsOfDevice(userId, keepDevice) : [];
  // Sessions end first: none of them can then start a grant that the cutoff below would miss.
  const ended = await deleteUserSessions(userId, kept.length ? keepDevice : undefined);
  await invalidateUserTokens(userId, { keepSessions: kept });
  await recordEvent("user.sessions_reset", { ...actor, subject: userId }, { ended: ended.length, keptDevice: kept.length ? keepDevice : null, ...note });
}

/** Forgets a device of the user, ends its sessions and their tokens; device.not_found when it has no such device. */
export async function removeDeviceOf(userId: string, id: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const sessions = await deleteDeviceOf(userId, id);
  if (!sessions) throw new AppError("device.not_found", { params: { id } });
  await invalidateSessionTokens(userId, sessions);
  await recordEvent("user.device_removed", { ...actor, subject: userId }, { device: id, ended: sessions.length, ...note });
}

/** POST /api/v3/users/{instanceId}/sessions/reset (IDP-CI-UA-ID names the device to keep). */
export async function resetSessions(ctx: TRequestContext, instanceId: string, keepDevice: string | undefined): Promise<void> {
  const account = await accountOfInstance(ctx, instanceId);
  await endSessionsOf(account.id, keepDevice, eventActorOf(ctx));
}

/** GET /api/v3/users/{subjectId}/apps: the devices and browsers the user signed in from, latest first. */
export async function listUserApps(ctx: TRequestContext, subjectId: string): Promise<TUserApp[]> {
  return devicesOf((await accountOfSubject(ctx, subjectId)).id);
}

/** DELETE /api/v3/users/{subjectId}/apps/{id}: forgets the device, ends its sessions and their tokens. */
export async function deleteUserApp(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  const account = await accountOfSubject(ctx, subjectId);
  await removeDeviceOf(account.id, id, eventActorOf(ctx));
}
