import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeAttestationKey, metadataPayload } from "../../test/support/attestation-certs.ts";
import { AppError } from "../errors/app-error.ts";
import { authenticatorName } from "./authenticator-names.ts";
import { cleanName, MAX_METADATA_CHARS, parseMetadataFile } from "./passkey-metadata.ts";
import { DEFAULT_PASSKEY_POLICY, ZPasskeyPolicy } from "./passkey-policy.schemas.ts";

const refusalOf = (p: Promise<unknown>) => p.then(() => "accepted", (e: unknown) => (e instanceof AppError ? e.code : String(e)));

describe("the passkey policy document", () => {
  it("defaults to the behaviour before there was a policy", () => {
    expect(DEFAULT_PASSKEY_POLICY).toEqual({ offered: true, requiredForAdmins: false, attachment: "any", userVerification: "required", attestation: "none", allowedAaguids: [] });
  });

  it("refuses requiring passkeys of administrators while they are not offered, and direct attestation with no model", () => {
    expect(ZPasskeyPolicy.safeParse({ offered: false, requiredForAdmins: true }).error?.issues[0]?.path).toEqual(["requiredForAdmins"]);
    expect(ZPasskeyPolicy.safeParse({ attestation: "direct" }).error?.issues[0]?.path).toEqual(["allowedAaguids"]);
    expect(ZPasskeyPolicy.safeParse({ attestation: "direct", allowedAaguids: ["not-a-uuid"] }).success).toBe(false);
    expect(ZPasskeyPolicy.parse({ attestation: "direct", allowedAaguids: ["CB69481E-8FF7-4039-93EC-0A2729A154A8"] }).allowedAaguids).toEqual(["cb69481e-8ff7-4039-93ec-0a2729a154a8"]);
    expect(ZPasskeyPolicy.safeParse({ offered: true, extra: 1 }).success).toBe(false);
  });
});

describe("authenticator names", () => {
  it("come from the uploaded metadata first, then the bundled table, else none", () => {
    expect(authenticatorName("FBFC3007-154E-4ECC-8C0B-6E020557D7BD", new Map())).toBe("iCloud Keychain");
    expect(authenticatorName("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", new Map())).toBe("Google Password Manager");
    expect(authenticatorName("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", new Map([["ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", "From metadata"]]))).toBe("From metadata");
    expect(authenticatorName("00000000-0000-0000-0000-000000000000", new Map())).toBeNull();
  });

  it("are cleaned to one bounded line of text", () => {
    expect(cleanName("  Key\u0000\u202e one\n\ttwo ")).toBe("Key one two");
    expect(cleanName("x".repeat(500))).toHaveLength(128);
  });
});

describe("uploaded FIDO metadata", () => {
  it("keeps the FIDO2 entries of a payload, trimmed, and flags a compromised model", async () => {
    const key = await makeAttestationKey();
    const [a, b] = [randomUUID(), randomUUID()];
    const payload = metadataPayload([
      { aaguid: a, description: "Model A", rootDer: key.rootDer },
      { aaguid: b, description: "Model B", rootDer: key.rootDer, status: "ATTESTATION_KEY_COMPROMISE" },
    ]);
    const withIcons = { ...payload, entries: [...payload.entries.map((e) => ({ ...e, metadataStatement: { ...e.metadataStatement, icon: "data:image/png;base64,AAAA" } })), { aaid: "4e4e#4005", metadataStatement: {} }] };
    const parsed = await parseMetadataFile(JSON.stringify(withIcons));
    expect(parsed).toMatchObject({ no: 1, signed: false });
    expect(parsed.entries.map((e) => [e.aaguid, e.name, e.compromised])).toEqual([
      [a, "Model A", false],
      [b, "Model B", true],
    ]);
    expect(JSON.stringify(parsed)).not.toContain("icon");
  });

  it("refuses what is not usable metadata, as a 400 with the reason", async () => {
    const key = await makeAttestationKey();
    const broken = metadataPayload([{ aaguid: randomUUID(), description: "Broken", rootDer: new Uint8Array(key.rootDer.subarray(0, 40)) }]);
    for (const text of ["", "null", "[]", "{", "a.b", "eyJ4IjoxfQ.eyJ4IjoxfQ.eA", JSON.stringify({ no: 1, nextUpdate: "x", entries: [] }), JSON.stringify({ no: "1", entries: {} }), JSON.stringify(broken)]) {
      expect(await refusalOf(parseMetadataFile(text)), text.slice(0, 40)).toBe("passkeys.metadata_invalid");
    }
    expect(await refusalOf(parseMetadataFile(" ".repeat(MAX_METADATA_CHARS + 1)))).toBe("passkeys.metadata_invalid");
  });
});
