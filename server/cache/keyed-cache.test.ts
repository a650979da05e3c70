import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type TDatabase } from "../db/database.ts";
import { publishChange } from "./change-bus.ts";
import { keyedCache } from "./keyed-cache.ts";
import { andThen } from "./maybe-promise.ts";

/** A loader that counts its calls and answers `value:<key>#<call>`. */
function counter() {
  const calls: string[] = [];
  const load = async (key: string) => {
    calls.push(key);
    return `value:${key}#${calls.length}`;
  };
  return { calls, load };
}

describe("keyed cache", () => {
  let db: TDatabase;
  beforeAll(async () => {
    db = await openDatabase({ kind: "memory" });
    setDatabase(db);
  });
  afterAll(async () => {
    setDatabase(undefined);
    await db.close();
  });

  it("freezes what it holds, deeply, outside production: a change in place throws where it is made", async () => {
    const cache = keyedCache<{ name: string; roles: string[]; seen: Map<string, { at: number }> }>("test-frozen", { ttlMs: 60_000, maxEntries: 10 });
    const held = await cache.read("a", async () => ({ name: "a", roles: ["admin"], seen: new Map([["x", { at: 1 }]]) }));
    expect(() => {
      held.name = "b";
    }).toThrow(TypeError);
    expect(() => held.roles.push("user")).toThrow(TypeError);
    expect(() => {
      held.seen.get("x")!.at = 2;
    }).toThrow(TypeError);
    expect(await cache.read("a", async () => ({ name: "other", roles: [], seen: new Map() }))).toEqual({ name: "a", roles: ["admin"], seen: new Map([["x", { at: 1 }]]) });
  });

  it("reads once, and again only after the bus says the entry or its topic changed", async () => {
    const cache = keyedCache<string>("test-drop", { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter();
    expect(await cache.read("a", load)).toBe("value:a#1");
    expect(await cache.read("a", load)).toBe("value:a#1");
    await cache.read("b", load);

    await publishChange("test-drop", "a");
    expect(await cache.read("a", load)).toBe("value:a#3");
    expect(await cache.read("b", load)).toBe("value:b#2");

    await publishChange("test-drop");
    await cache.read("a", load);
    await cache.read("b", load);
    expect(calls).toEqual(["a", "b", "a", "a", "b"]);
  });

  it("answers a fresh entry without a Promise, and a missing or changed one with the Promise of its load", async () => {
    const cache = keyedCache<string>("test-sync-first", { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter();
    const first = cache.read("a", load);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe("value:a#1");
    expect(cache.read("a", load)).toBe("value:a#1");
    await publishChange("test-sync-first", "a");
    const again = cache.read("a", load);
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe("value:a#2");
    expect(calls).toEqual(["a", "a"]);
    const brief = keyedCache<string>("test-sync-first-ttl", { ttlMs: 1, maxEntries: 10 });
    await brief.read("a", load);
    await new Promise((r) => setTimeout(r, 5));
    expect(brief.read("a", load)).toBeInstanceOf(Promise);
  });

  it("shares entries between two handles of one topic, as Next's separate bundles have", async () => {
    const { calls, load } = counter();
    await keyedCache<string>("test-shared", { ttlMs: 60_000, maxEntries: 10 }).read("a", load);
    await keyedCache<string>("test-shared", { ttlMs: 60_000, maxEntries: 10 }).read("a", load);
    expect(calls).toEqual(["a"]);
  });

  it("does not keep a value read while a change was being published", async () => {
    const cache = keyedCache<string>("test-race", { ttlMs: 60_000, maxEntries: 10 });
    let release!: (v: string) => void;
    const stale = cache.read("a", () => new Promise<string>((r) => (release = r)));
    await publishChange("test-race", "a");
    release("old");
    expect(await stale).toBe("old");
    const { load } = counter();
    expect(await cache.read("a", load)).toBe("value:a#1");
  });

  it("reads an entry again after its TTL, which each entry serves for 75 to 100 % of", async () => {
    const cache = keyedCache<string>("test-ttl", { ttlMs: 200, maxEntries: 100 });
    const { calls, load } = counter();
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
    for (const key of keys) await cache.read(key, load);
    await new Promise((r) => setTimeout(r, 120));
    for (const key of keys) await cache.read(key, load);
    expect(calls.length).toBe(50);
    await new Promise((r) => setTimeout(r, 100));
    for (const key of keys) await cache.read(key, load);
    expect(calls.length).toBe(100);
  });

  it("holds at most maxEntries, dropping the oldest", async () => {
    const cache = keyedCache<string>("test-bound", { ttlMs: 60_000, maxEntries: 2 });
    const { calls, load } = counter();
    for (const key of ["a", "b", "c", "b", "a"]) await cache.read(key, load);
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });

  it("read() answers a cached value as it is, and a miss with the load's Promise", async () => {
    const cache = keyedCache<string>("test-read", { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter();
    const first = cache.read("a", load);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe("value:a#1");
    // Cached: the value itself, no Promise, no load.
    expect(cache.read("a", load)).toBe("value:a#1");
    expect(andThen(cache.read("a", load), (v) => v.toUpperCase())).toBe("VALUE:A#1");
    expect(calls).toEqual(["a"]);
    await publishChange("test-read", "a");
    const again = andThen(cache.read("a", load), (v) => v.toUpperCase());
    expect(again).toBeInstanceOf(Promise);
    expect(await again).toBe("VALUE:A#2");
  });

  it("andThen throws a step's error at once for a value, and rejects with it for a Promise", async () => {
    const fail = () => {
      throw new Error("step failed");
    };
    expect(() => andThen("cached", fail)).toThrow("step failed");
    await expect(andThen(Promise.resolve("loaded"), fail)).rejects.toThrow("step failed");
  });
});
