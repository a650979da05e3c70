import { createHash, randomBytes } from "node:crypto";
import { savePendingRequest, takePendingRequest } from "./service-providers.repository.ts";

/*
 * One-time handles. A message that came by HTTP-POST carried none of the browser's cookies (they
 * are SameSite=Lax), so it waits under a handle for the GET it is redirected to, which carries them;
 * a logout in progress is found by one too. Only the handle's hash is stored.
 */

const PARKED_TTL_MS = 120_000;
const HANDLE = /^[A-Za-z0-9_-]{32}$/;

export const newHandle = (): string => randomBytes(24).toString("base64url");
export const handleHash = (handle: string): string => createHash("sha256").update(handle).digest("base64url");

/** Whether `text` can be a handle at all (anything else is not looked up). */
export const isHandle = (text: string | null | undefined): text is string => !!text && HANDLE.test(text);

/** Parks a message's payload for two minutes; the handle the GET will carry. */
export async function park(payload: Parameters<typeof savePendingRequest>[1]): Promise<string> {
  const handle = newHandle();
  await savePendingRequest(handleHash(handle), payload, new Date(Date.now() + PARKED_TTL_MS));
  return handle;
}

/** The parked payload, taken once; undefined for an unknown, spent or expired handle. */
export async function takeParked(handle: string | null): Promise<unknown> {
  return isHandle(handle) ? takePendingRequest(handleHash(handle), new Date()) : undefined;
}
