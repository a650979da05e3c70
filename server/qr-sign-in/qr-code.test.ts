import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base32, QR_CODE, qrCodeFor, qrCodeHash } from "./qr-code.ts";

describe("QR sign-in codes", () => {
  it("encodes base32 as RFC 4648 §10 does, without padding", () => {
    const vectors: [string, string][] = [["", ""], ["f", "MY"], ["fo", "MZXQ"], ["foo", "MZXW6"], ["foob", "MZXW6YQ"], ["fooba", "MZXW6YTB"], ["foobar", "MZXW6YTBOI"]];
    for (const [text, encoded] of vectors) expect(base32(Buffer.from(text))).toBe(encoded);
  });

  it("derives 128-bit codes that differ per sign-in and per browser", () => {
    const cookie = randomBytes(32).toString("base64url");
    const code = qrCodeFor(cookie, "a");
    expect(code).toMatch(QR_CODE);
    expect(qrCodeFor(cookie, "a")).toBe(code);
    expect(qrCodeFor(cookie, "b")).not.toBe(code);
    expect(qrCodeFor(randomBytes(32).toString("base64url"), "a")).not.toBe(code);
  });

  it("finds a code typed in lower case or with spaces, and nothing that is not one", () => {
    const code = qrCodeFor("cookie", "id");
    expect(qrCodeHash(code.toLowerCase())).toBe(qrCodeHash(code));
    expect(qrCodeHash(`${code.slice(0, 4)} ${code.slice(4)}`)).toBe(qrCodeHash(code));
    expect(qrCodeHash("not-a-code")).toBeUndefined();
    expect(qrCodeHash(`${code}A`)).toBeUndefined();
  });
});
