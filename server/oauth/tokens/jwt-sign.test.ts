import { generateKeyPairSync } from "node:crypto";
import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { signEs256Jwt } from "./jwt-sign.ts";

describe("signEs256Jwt", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });

  it("produces a JWS that an independent library verifies, header and claims intact", async () => {
    const token = await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, { iss: "https://idp", sub: "app", exp: Math.floor(Date.now() / 1000) + 60 }, privateKey);
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, { issuer: "https://idp", typ: "at+jwt", algorithms: ["ES256"] });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "k1", typ: "at+jwt" });
    expect(payload.sub).toBe("app");
  });

  it("fails verification under another key and after tampering", async () => {
    const token = await signEs256Jwt({ kid: "k1", typ: "JWT" }, { sub: "app" }, privateKey);
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey;
    await expect(jwtVerify(token, other)).rejects.toThrow();
    const [h, , s] = token.split(".");
    const tampered = `${h}.${Buffer.from('{"sub":"admin"}').toString("base64url")}.${s}`;
    await expect(jwtVerify(tampered, publicKey)).rejects.toThrow();
  });
});
