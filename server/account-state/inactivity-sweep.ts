import { getConfig } from "../config/config.ts";
import { describeError, log } from "../log/logger.ts";
import { lockInactiveAccounts } from "./account-state.service.ts";

const KEY = Symbol.for("idp.inactivity-sweep");
const FIRST_SWEEP_MS = 5_000;

/**
 * 5 s after the start and then every IDP_INACTIVITY_SWEEP_INTERVAL seconds, in the background, when the
 * inactivity lock is on.
 * Every instance schedules it; the advisory lock lets one of them sweep at a time, the others skip.
 * A failure is logged and retried at the next interval.
 */
export function startInactivitySweep(): void {
  const { lockAfterS, sweepIntervalS } = getConfig().account.inactivity;
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  if (lockAfterS <= 0 || g[KEY]) return;
  const tick = () =>
    lockInactiveAccounts().then(
      (result) => {
        if (!result.off && !result.skipped && result.locked) log.info("inactive accounts locked", { locked: result.locked });
      },
      (e: unknown) => log.warn("inactivity sweep failed", describeError(e)),
    );
  // The first sweep soon after the start, so that a lock that came due while no instance ran is not
  // left for a whole interval; then every interval.
  setTimeout(() => void tick(), Math.min(FIRST_SWEEP_MS, sweepIntervalS * 1000)).unref();
  g[KEY] = setInterval(tick, sweepIntervalS * 1000);
  g[KEY].unref();
}

/** At shutdown: no new sweep starts (a first sweep still pending fails on the closed database and is logged). */
export function stopInactivitySweep(): void {
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  clearInterval(g[KEY]);
  g[KEY] = undefined;
}
