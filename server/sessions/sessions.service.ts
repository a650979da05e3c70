import { randomUUID } from "node:crypto";
import { recordEvents, type TPendingEvent } from "../audit/audit.service.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";
import { getConfig } from "../config/config.ts";
import { hashOpaqueToken, newOpaqueToken } from "../crypto/opaque-token.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import {
  deleteSession,
  findReplacedSession,
  retireReplacedSession,
  findDeviceId,
  findDevicesOf,
  findSessionById,
  findSessionByTokenHash,
  insertDevice,
  insertSession,
  touchDevice,
  updateSessionSeen,
  type TSessionRow,
} from "./sessions.repository.ts";
import { describeUserAgent } from "./user-agent.ts";
import { keepNewSessionClearOfCutoff } from "../oauth/grants/token-invalidation.service.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { countLiveSessions, deleteExpiredSessions } from "./sessions.repository.ts";

export type TSession = TSessionRow;
export type TStartedSession = { session: TSession; token: string; deviceKey: string };

/** Cookie names (see server/http/cookies.ts): the session, and the key that recognises a device again. */
export const SESSION_COOKIE = "idp_session";
export const DEVICE_COOKIE = "idp_device";
/** A device is recognised for a year after its last sign-in (browsers cap cookies at about 400 days). */
export const DEVICE_KEY_TTL_MS = 365 * 86_400_000;

type TClientInfo = { ip?: string; userAgent?: string };

/** The device a sign-in comes from: the one its cookie names for this user, else a new one. */
async function recordDevice(userId: string, deviceKey: string | undefined, info: TClientInfo, now: Date, tx: TTx): Promise<{ id: string; key: string; isNew: boolean }> {
  const { kind, name } = describeUserAgent(info.userAgent);
  const data = { kind, name, userAgent: info.userAgent ?? null, lastIp: info.ip ?? null, lastSeenAt: now };
  const known = deviceKey ? await touchDevice(userId, hashOpaqueToken(deviceKey), data, tx) : null;
  if (known && deviceKey) return { id: known, key: deviceKey, isNew: false };
  const key = newOpaqueToken();
  const id = randomUUID();
  await insertDevice({ id, userId, keyHash: hashOpaqueToken(key), ...data }, tx);
  return { id, key, isNew: true };
}

/** The user's device a browser's device cookie names, if it names one of theirs. */
export async function deviceOfKey(userId: string, deviceKey: string | undefined): Promise<string | null> {
  return deviceKey ? findDeviceId(userId, hashOpaqueToken(deviceKey)) : null;
}

export type TSessionStart = {
  userId: string;
  amr: string[];
  deviceKey?: string;
  /** The browser's session until now, which this one replaces. */
  replacesToken?: string;
  /** The sign-in's security events, written with the session or not at all. */
  events?: TPendingEvent[];
  /** When the person proved who they are, if not now (a QR sign-in inherits the confirming session's). */
  authTime?: Date;
} & TClientInfo;

/**
 * Starts a browser session after a successful sign-in, and records the device it came from: one
 * transaction, since every sign-in passes here (the replaced session, the device, the session and
 * the sign-in's events together).
 */
export async function startSession(input: TSessionStart, now = new Date()): Promise<TStartedSession> {
  const token = newOpaqueToken();
  const { started, newDevice } = await inTransaction(async (tx) => {
    const replaced = input.replacesToken ? await findReplacedSession(hashOpaqueToken(input.replacesToken), tx) : null;
    await recordEvents(input.events ?? [], tx);
    const device = await recordDevice(input.userId, input.deviceKey, input, now, tx);
    // The absolute lifetime counts from the sign-in, not from this session: a QR sign-in inherits
    // the confirming session's auth time, so a chain of QR codes cannot outlive the first sign-in.
    const authTime = input.authTime ?? now;
    const session: TSession = {
      id: randomUUID(),
      userId: input.userId,
      deviceId: device.id,
      authTime,
      amr: input.amr,
      expiresAt: new Date(authTime.getTime() + getConfig().sessionTtl * 1000),
      lastSeenAt: now,
    };
    await insertSession({ ...session, tokenHash: hashOpaqueToken(token) }, tx);
    if (replaced) await retireReplacedSession(replaced, session, tx);
    return { started: { session, token, deviceKey: device.key }, newDevice: device.isNew };
  });
  await keepNewSessionClearOfCutoff(input.userId, started.session.id, now);
  // A device the account has not signed in from before is told to the person, unless it is their first.
  if (newDevice && (await findDevicesOf(input.userId)).length > 1) {
    await tellAccountHolderOf(input.userId, { kind: "new_device", actor: { ip: input.ip, userAgent: input.userAgent }, at: now });
  }
  return started;
}

// Writing "last seen" on every authorization request would be a write per application visit; a
// minute's precision is all a list of sessions needs.
const SEEN_PRECISION_MS = 60_000;

/** Whether a session has ended by time: its absolute lifetime, or IDP_SESSION_IDLE_TTL without use. */
function timedOut(row: { expiresAt: Date; lastSeenAt: Date }, now: Date): boolean {
  const idle = getConfig().sessionIdleTtl;
  // lastSeenAt is written at most once a minute (SEEN_PRECISION_MS): the idle limit allows for that.
  return row.expiresAt <= now || (idle > 0 && now.getTime() - row.lastSeenAt.getTime() > idle * 1000 + SEEN_PRECISION_MS);
}

/** The live session a cookie holds: not expired nor idle too long, and its account not locked since. */
export async function findActiveSession(token: string | undefined, now = new Date()): Promise<TSession | null> {
  if (!token) return null;
  const row = await findSessionByTokenHash(hashOpaqueToken(token));
  if (!row || timedOut(row, now) || row.userLocked) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > SEEN_PRECISION_MS) await updateSessionSeen(row.id, now);
  const { userLocked: _, ...session } = row;
  return session;
}

/**
 * The session a cookie holds, for signing out: idle too long or not (ending an idle session must
 * still end the tokens it holds), but not past its absolute end.
 */
export async function findSessionToEnd(token: string | undefined, now = new Date()): Promise<TSession | null> {
  if (!token) return null;
  const row = await findSessionByTokenHash(hashOpaqueToken(token));
  if (!row || row.expiresAt <= now) return null;
  const { userLocked: _, ...session } = row;
  return session;
}

/** A session by id while it lives: not ended, not expired nor idle too long, its account not locked. */
export async function findLiveSession(id: string, now = new Date()): Promise<TSession | null> {
  const row = await findSessionById(id);
  if (!row || timedOut(row, now) || row.userLocked) return null;
  const { userLocked: _, ...session } = row;
  return session;
}

export async function endSession(id: string): Promise<boolean> {
  return deleteSession(id);
}

/** Ends the session a cookie holds, if it holds one (a new sign-in replaces the old session). */
export async function endSessionByToken(token: string | undefined): Promise<void> {
  const row = token ? await findSessionByTokenHash(hashOpaqueToken(token)) : null;
  if (row) await deleteSession(row.id);
}
