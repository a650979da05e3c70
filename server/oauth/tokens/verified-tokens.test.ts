import { describe, expect, it } from "vitest";
import { forgetVerified, recallVerified, rememberVerified } from "./verified-tokens.ts";

const signature = "S1gnatureS1gnatureS1gnatureS1gnatureS1gnatureS1gnature";
const token = (payload: string) => `eyJhbGciOiJFUzI1NiJ9.${payload}.${signature}`;

describe("verified tokens", () => {
  it("recall a token verified before, given as another string of the same characters", () => {
    const t = token("eyJzdWIiOiJhIn0");
    rememberVerified(t, { claims: { sub: "a" }, kid: "k1" });
    expect(recallVerified(`${t.slice(0, 10)}${t.slice(10)}`)).toEqual({ claims: { sub: "a" }, kid: "k1" });
  });

  it("never let a signature vouch for another payload, nor let such a token forget the real one", () => {
    const real = token("eyJzdWIiOiJyZWFsIn0");
    const forged = token("eyJzdWIiOiJhZG1pbiJ9");
    rememberVerified(real, { claims: { sub: "real" }, kid: "k1" });
    expect(recallVerified(forged)).toBeUndefined();
    forgetVerified(forged);
    expect(recallVerified(real)?.claims).toEqual({ sub: "real" });
    forgetVerified(real);
    expect(recallVerified(real)).toBeUndefined();
  });
});
