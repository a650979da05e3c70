import { z } from "zod";

// What a browser sends back from navigator.credentials.create() / .get(), as @simplewebauthn/browser
// serialises it. Checked for shape and size before the library reads a byte of it.
const ZB64Url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

const ZCommon = {
  id: ZB64Url(1366).min(1),
  rawId: ZB64Url(1366).min(1),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const ZRegistrationAnswer = z.strictObject({
  ...ZCommon,
  response: z.looseObject({
    clientDataJSON: ZB64Url(4096),
    attestationObject: ZB64Url(32_768),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});
export type TRegistrationAnswer = z.infer<typeof ZRegistrationAnswer>;

export const ZAuthenticationAnswer = z.strictObject({
  ...ZCommon,
  response: z.looseObject({
    clientDataJSON: ZB64Url(4096),
    authenticatorData: ZB64Url(4096),
    signature: ZB64Url(1024),
    userHandle: ZB64Url(128).optional(),
  }),
});
export type TAuthenticationAnswer = z.infer<typeof ZAuthenticationAnswer>;

// It goes into the plain-text notices and the audit trail: no line breaks or other control characters.
export const ZPasskeyName = z.string().trim().min(1, "is required").max(64, "must be at most 64 characters").regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

/** A passkey as the REST API shows it: never its public key. */
export const ZPasskeyView = z.object({
  id: z.string().describe("credential id, base64url"),
  name: z.string(),
  createdAt: z.string().describe("ISO 8601"),
  lastUsedAt: z.string().nullable().describe("ISO 8601, or null before its first sign-in"),
  aaguid: z.string().describe("the authenticator model's AAGUID (all zeros when it does not say)"),
  synced: z.boolean().describe("true for a passkey synced across devices, false for one bound to its device"),
  transports: z.array(z.string()),
});
