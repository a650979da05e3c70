import { describe, expect, it } from "vitest";
import { answerMetricsCollection, receiveLocks, type TLock } from "./primary-link.ts";

const announce = (locks: TLock[]) => (process.emit as (event: string, message: unknown) => boolean)("message", { idp: "locked", locks });

describe("locks the primary announces before any client authenticated in this worker", () => {
  it("are kept up to 20,000 keys, the latest announcement of a key winning, and handed over once", () => {
    // The link exists from boot on (the metrics collection), so announcements can come before anyone takes them.
    answerMetricsCollection(async () => []);
    announce(Array.from({ length: 15_000 }, (_, i) => ({ key: `ip:${i}`, until: 1_000 })));
    announce(Array.from({ length: 15_000 }, (_, i) => ({ key: `ip:${i + 10_000}`, until: 2_000 })));
    const taken: TLock[] = [];
    receiveLocks((locks) => taken.push(...locks));
    expect(taken).toHaveLength(20_000);
    expect(taken.at(-1)).toEqual({ key: "ip:24999", until: 2_000 });
    expect(taken.find((l) => l.key === "ip:12000")).toEqual({ key: "ip:12000", until: 2_000 });
    expect(taken.some((l) => l.key === "ip:0")).toBe(false);
    // From now on announcements go straight to the taker.
    announce([{ key: "client:x", until: 3_000 }]);
    expect(taken).toHaveLength(20_001);
  });
});
