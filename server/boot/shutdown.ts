import { stopInactivitySweep } from "../account-state/inactivity-sweep.ts";
import { drainChanges } from "../cache/change-bus.ts";
import { getDatabase } from "../db/index.ts";
import { describeError, log } from "../log/logger.ts";
import { stopMaintenance } from "../maintenance/maintenance.ts";
import { stopDeliveryWorker } from "../messaging/delivery-worker.ts";

/**
 * The last step of a clean stop, after the HTTP server has finished its requests: the background
 * work stops (a delivery in progress completes), changes whose NOTIFY failed are announced once
 * more, and the database closes (the embedded one releases its lock, so the next start need not
 * wait for a stale-lock takeover). Never throws: a stop must reach its exit.
 */
export async function shutdown(): Promise<void> {
  stopMaintenance();
  stopInactivitySweep();
  await stopDeliveryWorker().catch((e: unknown) => log.warn("delivery worker did not stop cleanly", describeError(e)));
  await drainChanges().catch(() => false);
  try {
    // The holder keeps the closed database: a late caller gets an error, not a second open.
    await (await getDatabase()).close();
  } catch (e) {
    log.warn("database did not close cleanly", describeError(e));
  }
  log.info("stopped");
}

// The production server (server/serve/server.mjs, plain JavaScript outside Next's bundles) finds it
// here: boot registers it in the process that booted.
const KEY = Symbol.for("idp.shutdown");

export function registerShutdown(): void {
  (globalThis as { [KEY]?: () => Promise<void> })[KEY] = shutdown;
}
