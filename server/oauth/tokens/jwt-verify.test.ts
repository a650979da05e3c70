import { createHmac, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
import { exportJWK, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { signEs256Jwt } from "./jwt-sign.ts";
import { JwtError, verifyEs256Jwt } from "./jwt-verify.ts";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const now = Math.floor(Date.now() / 1000);
const claims = { iss: "https://idp", aud: "https://idp", sub: "app", exp: now + 60, iat: now };
const opts = { issuer: "https://idp", audience: "https://idp", typ: "at+jwt", keyFor: async (kid: string) => (kid === "k1" ? publicKey : undefined) };
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

async function reason(token: string, o: Partial<typeof opts> & { now?: number } = {}): Promise<string> {
  try {
    await verifyEs256Jwt(token, { ...opts, ...o });
  } catch (e) {
    if (e instanceof JwtError) return e.reason;
    throw e;
  }
  return "accepted";
}

describe("verifyEs256Jwt", () => {
  it("accepts our tokens and tokens an independent library signs", async () => {
    expect(await verifyEs256Jwt(await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, claims, privateKey), opts)).toMatchObject({ sub: "app" });
    const byJose = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" }).sign(privateKey as KeyObject);
    expect(await reason(byJose)).toBe("accepted");
  });

  it("refuses alg none, HMAC keyed with the public key, and unknown critical headers", async () => {
    const body = b64(claims);
    expect(await reason(`${b64({ alg: "none", typ: "at+jwt", kid: "k1" })}.${body}.`)).toBe("malformed");
    expect(await reason(`${b64({ alg: "none", typ: "at+jwt", kid: "k1" })}.${body}.AAAA`)).toBe("unsupported");
    const pem = publicKey.export({ type: "spki", format: "pem" });
    const hs = `${b64({ alg: "HS256", typ: "at+jwt", kid: "k1" })}.${body}`;
    expect(await reason(`${hs}.${createHmac("sha256", pem).update(hs).digest("base64url")}`)).toBe("unsupported");
    const crit = await signEs256Jwt({ kid: "k1", typ: "at+jwt", crit: ["x-policy"] } as { kid: string; typ: string }, claims, privateKey);
    expect(await reason(crit)).toBe("unsupported");
  });

  it("refuses a wrong typ, an unknown kid, a foreign key and a tampered payload", async () => {
    expect(await reason(await signEs256Jwt({ kid: "k1", typ: "JWT" }, claims, privateKey))).toBe("unsupported");
    expect(await reason(await signEs256Jwt({ kid: "k9", typ: "at+jwt" }, claims, privateKey))).toBe("unknown_key");
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    expect(await reason(await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, claims, other))).toBe("bad_signature");
    const [h, , s] = (await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, claims, privateKey)).split(".");
    expect(await reason(`${h}.${b64({ ...claims, sub: "admin" })}.${s}`)).toBe("bad_signature");
    expect(await reason(`${h}.${b64(claims)}.${s}x`)).toBe("bad_signature");
  });

  it("checks issuer, audience, expiry and not-before", async () => {
    const token = (c: Record<string, unknown>) => signEs256Jwt({ kid: "k1", typ: "at+jwt" }, c, privateKey);
    expect(await reason(await token({ ...claims, iss: "https://evil" }))).toBe("bad_claims");
    expect(await reason(await token({ ...claims, aud: "https://other" }))).toBe("bad_claims");
    expect(await reason(await token({ ...claims, aud: ["https://other", "https://idp"] }))).toBe("accepted");
    expect(await reason(await token({ ...claims, exp: undefined }))).toBe("bad_claims");
    expect(await reason(await token({ ...claims, exp: now }))).toBe("expired");
    expect(await reason(await token(claims), { now: now + 61 })).toBe("expired");
    expect(await reason(await token({ ...claims, nbf: now + 3600 }))).toBe("bad_claims");
  });

  it("refuses another spelling of the same signature: one token, one string", async () => {
    const token = await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, claims, privateKey);
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // 64 bytes in 86 characters: the last one's low four bits are not part of the signature.
    const last = ALPHABET.indexOf(token.at(-1)!);
    const respelled = token.slice(0, -1) + ALPHABET[last ^ 1];
    expect(Buffer.from(respelled.split(".")[2]!, "base64url")).toEqual(Buffer.from(token.split(".")[2]!, "base64url"));
    expect(await reason(token)).toBe("accepted");
    expect(await reason(respelled)).toBe("malformed");
  });

  it("refuses garbage without throwing anything else", async () => {
    for (const t of ["", "a", "a.b", "a.b.c.d", "é.b.c", `${b64([1])}.${b64(claims)}.AAAA`, `${"x".repeat(10)}.${"y".repeat(10)}.${"z".repeat(10)}`]) {
      expect(["malformed", "unsupported"]).toContain(await reason(t));
    }
  });

  it("verifies with a key rebuilt from the published JWK, as the signing-key service loads it", async () => {
    const fromJwk = createPublicKey({ key: (await exportJWK(publicKey)) as JsonWebKey, format: "jwk" });
    const token = await signEs256Jwt({ kid: "k1", typ: "at+jwt" }, claims, privateKey);
    expect(await reason(token, { keyFor: async () => fromJwk })).toBe("accepted");
  });
});
