import { describe, expect, it } from "vitest";
import { addressBlock, relayedKeys, signInKeys } from "./throttle-keys.ts";
import { ACCOUNT_CAP_POLICY, ACCOUNT_POLICY, IP_POLICY } from "./throttle-policy.ts";

describe("signInKeys", () => {
  it("counts the account per address, across addresses and the address itself, under HMAC keys", () => {
    const k = signInKeys("id:79001234567", "203.0.113.9", null);
    expect(k.keys.map((x) => x.policy)).toEqual([ACCOUNT_POLICY, ACCOUNT_CAP_POLICY, IP_POLICY]);
    expect(k.own).toBe(k.keys[0]!.key);
    expect(k.others).toEqual([k.keys[1]!.key, k.keys[2]!.key]);
    for (const { key } of k.keys) {
      expect(key).toMatch(/^(password-ip|acct|ip):[A-Za-z0-9_-]{43}$/);
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
    expect(k.own).toMatch(/^password-dev:/);
  });

  it("counts the second step's code on a pair of its own, which a right password does not start over", () => {
    const password = signInKeys("user:ivanov", "203.0.113.9", null);
    const code = signInKeys("user:ivanov", "203.0.113.9", null, "code");
    expect(code.own).not.toBe(password.own);
    expect(code.others).toEqual(password.others);
  });

  it("counts an IPv6 subscriber's /64 as one address, and an IPv4-mapped address as the IPv4 one", () => {
    expect(addressBlock("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:0db8:0001:0002:0::9")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressBlock("203.0.113.9")).toBe("203.0.113.9");
    const a = signInKeys("user:ivanov", "2001:db8:1:2::1", null);
    const b = signInKeys("user:ivanov", "2001:db8:1:2:ffff::2", null);
    expect(b.own).toBe(a.own);
    expect(b.others).toEqual(a.others);
  });

  it("shares the account's ceiling with a current-password check an application relays", () => {
    const relayed = relayedKeys("ivanov", "rp-web");
    const atSignIn = signInKeys("user:ivanov", "203.0.113.9", null);
    expect(relayed.keys[1]!.key).toBe(atSignIn.keys[1]!.key);
    expect(relayed.own).toMatch(/^client-user:/);
    expect(relayed.others).toEqual([relayed.keys[1]!.key]);
  });
});
