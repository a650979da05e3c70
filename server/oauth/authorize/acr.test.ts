import { describe, expect, it } from "vitest";
import { acrOf, demandsPhishingResistant, isPhishingResistant } from "./acr.ts";

describe("acr", () => {
  it("is phr for a sign-in with a passkey, reused or not; else 1 when made now and 0 when reused", () => {
    expect(acrOf(["swk", "user", "mfa"], false)).toBe("phr");
    expect(acrOf(["pwd", "swk", "mfa"], true)).toBe("phr");
    expect(acrOf(["pwd", "otp", "mfa"], true)).toBe("1");
    expect(acrOf(["pwd"], false)).toBe("0");
    expect(isPhishingResistant(["hwk"])).toBe(true);
    expect(isPhishingResistant(["pwd", "sms"])).toBe(false);
    // A QR sign-in confirmed by a phone that signed in with a passkey: relayable, so never phr.
    expect(isPhishingResistant(["swk", "user", "mfa", "qr"])).toBe(false);
    expect(acrOf(["swk", "user", "mfa", "qr"], true)).toBe("1");
  });

  it("demands a passkey only when phr is the one value it knows among those asked", () => {
    expect(demandsPhishingResistant(["phr"])).toBe(true);
    expect(demandsPhishingResistant(["urn:example:gold", "phr"])).toBe(true);
    expect(demandsPhishingResistant(["phr", "1"])).toBe(false);
    expect(demandsPhishingResistant(["0"])).toBe(false);
    expect(demandsPhishingResistant(["urn:example:gold"])).toBe(false);
    expect(demandsPhishingResistant([])).toBe(false);
    expect(demandsPhishingResistant(undefined)).toBe(false);
  });
});
