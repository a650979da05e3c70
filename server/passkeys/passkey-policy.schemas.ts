import { z } from "zod";

/** An AAGUID as the FIDO metadata and @simplewebauthn/server write it: a lower-case UUID. */
export const ZAaguid = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "must be an AAGUID (a UUID)");

/**
 * The passkey policy as the console and the import document write it. Absent fields keep their
 * defaults, which are the behaviour before there was a policy: offered, attestation "none", user
 * verification required, any attachment, not required of administrators.
 */
export const ZPasskeyPolicy = z
  .strictObject({
    offered: z.boolean().default(true).describe("Whether people may add passkeys (the passkeys they have keep working either way)"),
    requiredForAdmins: z.boolean().default(false).describe("Whether an account with a console role must have a passkey before the console opens"),
    attachment: z.enum(["any", "platform", "cross-platform"]).default("any").describe("Which authenticators may be registered: built into the device, a roaming key, or either"),
    userVerification: z.enum(["required", "preferred"]).default("required").describe("At registration: whether the authenticator must verify the person (PIN, biometrics)"),
    attestation: z.enum(["none", "direct"]).default("none").describe("direct: only authenticators on allowedAaguids, proven by an attestation that verifies against the uploaded FIDO metadata"),
    allowedAaguids: z.array(ZAaguid).max(1000).default([]).describe("With attestation direct: the authenticator models (AAGUIDs) that may be registered"),
  })
  // Required of administrators but not offered: no administrator without one could ever open the console.
  .refine((p) => p.offered || !p.requiredForAdmins, { message: "passkeys must be offered to be required of administrators", path: ["requiredForAdmins"] })
  .refine((p) => p.attestation === "none" || p.allowedAaguids.length > 0, { message: "pick at least one authenticator for direct attestation", path: ["allowedAaguids"] });
export type TPasskeyPolicy = z.infer<typeof ZPasskeyPolicy>;

export const DEFAULT_PASSKEY_POLICY: TPasskeyPolicy = ZPasskeyPolicy.parse({});

/** An authenticator model of the uploaded metadata, as the console lists it to pick from. */
export type TMetadataAuthenticator = { aaguid: string; name: string; compromised: boolean };
