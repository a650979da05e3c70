import argon2 from "argon2";
import { describe, expect, it } from "vitest";
import { hashGateState, MAX_PARALLEL_HASHES } from "./hash-gate.ts";
import { hashSecret, needsRehash, verifySecret } from "./password-hash.ts";

describe("password hashing", () => {
  it("uses argon2id at OWASP's parameters or above (m ≥ 19 MiB, t ≥ 2, p = 1)", async () => {
    const hash = await hashSecret("correct horse battery staple");
    const [, algo, , params] = hash.split("$");
    expect(algo).toBe("argon2id");
    // node-argon2 writes m,p,t; the reference implementation m,t,p: read them by name.
    const p = Object.fromEntries(params!.split(",").map((kv) => kv.split("=")).map(([k, v]) => [k, Number(v)]));
    expect(p.m).toBeGreaterThanOrEqual(19_456);
    expect(p.t).toBeGreaterThanOrEqual(2);
    expect(p.p).toBe(1);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifySecret(hash, "correct horse battery staple")).toBe(true);
    expect(await verifySecret(hash, "correct horse battery stapl")).toBe(false);
  });
  it("wants a weaker argon2 hash replaced", async () => {
    expect(needsRehash(await argon2.hash("x", { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 }))).toBe(true);
  });
  it("runs a burst through the gate, never more than its bound at once", async () => {
    const burst = await Promise.all(Array.from({ length: MAX_PARALLEL_HASHES * 3 }, (_, i) => hashSecret(`burst ${i}`)));
    expect(new Set(burst).size).toBe(MAX_PARALLEL_HASHES * 3);
    const state = hashGateState();
    expect(state.peak).toBe(MAX_PARALLEL_HASHES);
    expect(state.running).toBe(0);
    expect(state.waiting).toBe(0);
  });
});
