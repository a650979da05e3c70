import { recordEvent } from "../audit/audit.service.ts";
import { listInstancesOf, removeInstance, type TAppInstance } from "../dyn-clients/dyn-clients.service.ts";
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

function instanceToUserApp(i: TAppInstance): TUserApp {
  const seen = i.boundAt ?? i.createdAt;
  return {
    id: i.id,
    kind: "app_instance",
    name: i.name,
    firstSeen: unix(seen),
    lastSeen: unix(i.lastSeenAt ?? seen),
    lastIp: null,
    clientId: i.id,
    parentClientId: i.parentId,
    ...(i.softwareId ? { softwareId: i.softwareId } : {}),
    ...(i.softwareVersion ? { softwareVersion: i.softwareVersion } : {}),
  };
}

/**
 * POST /api/v3/users/{instanceId}/sessions/reset: ends the user's browser sessions and invalidates
 * every token issued before. The device `keepDevice` names (IDP-CI-UA-ID) keeps its sessions and
 * their tokens; an id that is not one of the user's devices keeps nothing.
 */
export async function resetSessions(ctx: TRequestContext, instanceId: string, keepDevice: string | undefined): Promise<void> {
  const account = await accountOfInstance(ctx, instanceId);
  const kept = keepDevice ? await findSessionIdsOfDevice(account.id, keepDevice) : [];
  // Sessions end first: none of them can then start a grant that the cutoff below would miss.
  const ended = await deleteUserSessions(account.id, kept.length ? keepDevice : undefined);
  await invalidateUserTokens(account.id, { keepSessions: kept });
  await recordEvent("user.sessions_reset", { ...eventActorOf(ctx), subject: account.id }, { ended: ended.length, keptDevice: kept.length ? keepDevice : null });
}

/** GET /api/v3/users/{subjectId}/apps: the devices and browsers the user signed in from, latest first. */
export async function listUserApps(ctx: TRequestContext, subjectId: string): Promise<TUserApp[]> {
  const account = await accountOfSubject(ctx, subjectId);
  const apps = [...(await findDevicesOf(account.id)).map(toUserApp), ...(await listInstancesOf(account.id)).map(instanceToUserApp)];
  // A stable sort: devices seen within the same second keep the order the database gave them.
  return apps.sort((a, b) => b.lastSeen - a.lastSeen);
}

/**
 * DELETE /api/v3/users/{subjectId}/apps/{id}: forgets the device, ends its sessions and their
 * tokens; or removes the app instance with its tokens.
 */
export async function deleteUserApp(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  const account = await accountOfSubject(ctx, subjectId);
  const sessions = await deleteDeviceOf(account.id, id);
  if (!sessions) {
    if (!(await removeInstance(account.id, id))) throw new AppError("device.not_found", { params: { id } });
    await recordEvent("user.app_instance_removed", { ...eventActorOf(ctx), subject: account.id }, { instance: id });
    return;
  }
  await invalidateSessionTokens(account.id, sessions);
  await recordEvent("user.device_removed", { ...eventActorOf(ctx), subject: account.id }, { device: id, ended: sessions.length });
}
