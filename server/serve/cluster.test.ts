import { describe, expect, it } from "vitest";
import { afterWorkerExit } from "./cluster.mjs";

describe("afterWorkerExit: what the cluster primary does when a worker dies", () => {
  it("stops before every worker has started: a worker that cannot start will not by retrying", () => {
    expect(afterWorkerExit({ started: false, listened: false, livedMs: 2_000, recentDeaths: 1, startFailures: 1 })).toEqual({ action: "stop" });
  });

  it("once started, keeps forking replacements that fail to start (a database outage), backing off to 15 s, never stopping", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 20, 1000].map((n) =>
      afterWorkerExit({ started: true, listened: false, livedMs: 1_500, recentDeaths: Math.min(n, 4), startFailures: n }),
    );
    expect(delays.map((d) => d.action)).toEqual(Array(10).fill("fork"));
    expect(delays.map((d) => (d as { delayMs: number }).delayMs)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000]);
  });

  it("replaces at once a worker that served a minute, and backs off on quick deaths of serving workers", () => {
    expect(afterWorkerExit({ started: true, listened: true, livedMs: 60_000, recentDeaths: 5, startFailures: 0 })).toEqual({ action: "fork", delayMs: 0 });
    expect(afterWorkerExit({ started: true, listened: true, livedMs: 5_000, recentDeaths: 1, startFailures: 0 })).toEqual({ action: "fork", delayMs: 250 });
    expect(afterWorkerExit({ started: true, listened: true, livedMs: 5_000, recentDeaths: 3, startFailures: 0 })).toEqual({ action: "fork", delayMs: 1_000 });
  });
});
