import { describe, expect, it } from "vitest";
import { cgroupCpuLimit, forkedByOurPrimary, parseWorkers, PRIMARY_MARK, usableCores } from "./workers.mjs";

const PG = "postgresql://idp@db/idp";

describe("parseWorkers (IDP_WORKERS)", () => {
  it("defaults to one process per core on PostgreSQL, at most 64, and to one on the embedded database", () => {
    expect(parseWorkers(undefined, PG, 8)).toEqual({ ok: true, value: 8 });
    expect(parseWorkers("", PG, 200)).toEqual({ ok: true, value: 64 });
    expect(parseWorkers(undefined, undefined, 8)).toEqual({ ok: true, value: 1 });
    expect(parseWorkers(" ", "", 8)).toEqual({ ok: true, value: 1 });
  });

  it("takes an explicit whole number from 1 to 64, whatever the cores", () => {
    expect(parseWorkers("3", PG, 2)).toEqual({ ok: true, value: 3 });
    expect(parseWorkers("1", undefined, 8)).toEqual({ ok: true, value: 1 });
    for (const raw of ["0", "65", "-1", "1.5", "two", "0x2"]) {
      expect(parseWorkers(raw, PG, 2)).toEqual({ ok: false, reason: `must be a whole number between 1 and 64 (got "${raw}")` });
    }
  });

  it("refuses more than one on the embedded database, which one process owns", () => {
    expect(parseWorkers("2", undefined, 8)).toEqual({
      ok: false,
      reason: 'must be 1 on the embedded database, which one process owns; set DATABASE_URL to run several workers (got "2")',
    });
  });
});

describe("usableCores: the default honours a container's CPU quota (cgroup v2 cpu.max)", () => {
  it("reads quota/period, rounded up, at least 1; no limit or an unreadable file leaves the machine's cores", () => {
    expect(cgroupCpuLimit("200000 100000\n")).toBe(2);
    expect(cgroupCpuLimit("150000 100000")).toBe(2);
    expect(cgroupCpuLimit("10000 100000")).toBe(1);
    expect(cgroupCpuLimit("max 100000\n")).toBeUndefined();
    for (const junk of [undefined, "", "max", "abc 100", "100 0"]) expect(cgroupCpuLimit(junk)).toBeUndefined();
    expect(usableCores(64, () => "200000 100000\n")).toBe(2);
    expect(usableCores(4, () => "1600000 100000")).toBe(4);
    expect(usableCores(8, () => "max 100000")).toBe(8);
    expect(usableCores(8, () => undefined)).toBe(8);
    expect(parseWorkers(undefined, PG, usableCores(64, () => "250000 100000"))).toEqual({ ok: true, value: 3 });
  });
});

describe("forkedByOurPrimary", () => {
  it("is true only in a cluster worker whose parent is the primary that marked it", () => {
    expect(forkedByOurPrimary(true, { [PRIMARY_MARK]: "4242" }, 4242)).toBe(true);
    // Another process manager's cluster (PM2's cluster mode): no mark, or a mark inherited from elsewhere.
    expect(forkedByOurPrimary(true, {}, 4242)).toBe(false);
    expect(forkedByOurPrimary(true, { [PRIMARY_MARK]: "17" }, 4242)).toBe(false);
    expect(forkedByOurPrimary(false, { [PRIMARY_MARK]: "4242" }, 4242)).toBe(false);
  });
});
