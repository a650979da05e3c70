import { deleteExpiredConfirmations } from "../contacts/confirmations.repository.ts";
import { describeError, log } from "../log/logger.ts";
import { deleteExpiredRegistrations } from "../registration/registration.repository.ts";

const HOUR_MS = 60 * 60 * 1000;
// Expired confirmations are kept a day so that a late code still gets "code_expired", not "not found".
const KEEP_EXPIRED_MS = 24 * HOUR_MS;

/** Removes registrations nobody finished and confirmations long expired. Safe to run on every instance. */
export async function runMaintenance(now = new Date()): Promise<{ registrations: number; confirmations: number }> {
  const registrations = await deleteExpiredRegistrations(now);
  const confirmations = await deleteExpiredConfirmations(new Date(now.getTime() - KEEP_EXPIRED_MS));
  return { registrations, confirmations };
}

const KEY = Symbol.for("idp.maintenance");

/** Hourly, in the background; a failure is logged and retried at the next hour. */
export function startMaintenance(): void {
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  if (g[KEY]) return;
  const tick = () =>
    runMaintenance().then(
      (removed) => log.info("maintenance", removed),
      (e: unknown) => log.warn("maintenance failed", describeError(e)),
    );
  g[KEY] = setInterval(tick, HOUR_MS);
  g[KEY].unref();
}
