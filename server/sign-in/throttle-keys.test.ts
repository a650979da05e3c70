import { describe, expect, it } from "vitest";
import { relayedKeys, signInKeys } from "./throttle-keys.ts";
import { ACCOUNT_CAP_POLICY, ACCOUNT_POLICY, IP_POLICY } from "./throttle-policy.ts";

describe("signInKeys", () => {
  it("counts the account per address, across addresses and the address itself, under HMAC keys", () => {
    const k = signInKeys("id:79001234567", "203.0.113.9", null);
    expect(k.keys.map((x) => x.policy)).toEqual([ACCOUNT_POLICY, ACCOUNT_CAP_POLICY, IP_POLICY]);
    expect(k.own).toBe(k.keys[0]!.key);
    expect(k.others).toEqual([k.keys[1]!.key, k.keys[2]!.key]);
    for (const { key } of k.keys) {
      expect(key).toMatch(/^(acct-ip|acct|ip):[A-Za-z0-9_-]{43}$/);
      expect(key).not.toContain("79001234567");
      expect(key).not.toContain("203.0.113.9");
    }
    // The same account and address always meet the same counters; another address only the ceiling.
    expect(signInKeys("id:79001234567", "203.0.113.9", null)).toEqual(k);
    const elsewhere = signInKeys("id:79001234567", "198.51.100.1", null);
    expect(elsewhere.own).not.toBe(k.own);
    expect(elsewhere.keys[1]!.key).toBe(k.keys[1]!.key);
  });

  it("spares a browser the account knows the ceiling strangers fill", () => {
    const k = signInKeys("user:ivanov", "203.0.113.9", "device-1");
    expect(k.keys.map((x) => x.policy)).toEqual([ACCOUNT_POLICY, IP_POLICY]);
    expect(k.own).toMatch(/^acct-dev:/);
  });

  it("shares the account's ceiling with a current-password check an application relays", () => {
    const relayed = relayedKeys("ivanov", "rp-web");
    const atSignIn = signInKeys("user:ivanov", "203.0.113.9", null);
    expect(relayed.keys[1]!.key).toBe(atSignIn.keys[1]!.key);
    expect(relayed.own).toMatch(/^client-user:/);
    expect(relayed.others).toEqual([relayed.keys[1]!.key]);
  });
});
