import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedFor } from "./collectors.ts";

describe("a scrape-time cache", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("loads at most once per period, however many scrapes ask", async () => {
    vi.useFakeTimers({ now: 0 });
    let loads = 0;
    const read = cachedFor(10_000, async () => ++loads);
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    vi.setSystemTime(9_999);
    expect(await read()).toBe(1);
    vi.setSystemTime(10_000);
    expect(await read()).toBe(2);
    expect(loads).toBe(2);
  });

  it("forgets a failed load, so the next scrape tries again at once", async () => {
    vi.useFakeTimers({ now: 0 });
    let calls = 0;
    const read = cachedFor(10_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error("database away");
      return calls;
    });
    await expect(read()).rejects.toThrow("database away");
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
  });
});
