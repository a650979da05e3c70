import { z } from "zod";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { decodeBase32, OTP_ALGORITHMS } from "./otp-codes.ts";

export { ZSubjectParams };

/** Shortest seed accepted: 80 bits, what the common authenticator apps issue; RFC 4226 recommends 160. */
export const MIN_SEED_BYTES = 10;
export const MAX_SEED_BYTES = 128;

export const ZBase32Secret = z
  .string()
  .max(256, "base32Secret is too long")
  .refine((s) => {
    const seed = decodeBase32(s);
    return seed !== undefined && seed.length >= MIN_SEED_BYTES && seed.length <= MAX_SEED_BYTES;
  }, `base32Secret must be base32 (RFC 4648) of ${MIN_SEED_BYTES} to ${MAX_SEED_BYTES} bytes`)
  .describe("the shared secret in base32 (RFC 4648; case, spaces and padding do not matter)");

const ZName = z.string().trim().min(1, "name must not be empty").max(64, "name must be at most 64 characters");
const ZLen = z.number().int("len must be a whole number").min(4, "len must be 4 to 16").max(16, "len must be 4 to 16").describe("code length");
const ZAlgo = z.enum(OTP_ALGORITHMS, { error: "algo must be SHA1, SHA256 or SHA512" });
const ZOtpCode = z.string().min(1, "otpCode must not be empty").max(32, "otpCode is too long").describe("the code the generator shows now");
const ZSubjectField = z.string().min(1).max(256).describe("system mode only: the account to bind to (user mode binds to the token's user)");
/** What both attach bodies carry. */
const GENERATOR_FIELDS = { base32Secret: ZBase32Secret, len: ZLen, algo: ZAlgo, subjectId: ZSubjectField.optional() };

export const ZTotpAttach = z
  .strictObject({
    ...GENERATOR_FIELDS,
    name: ZName.optional().describe("display name; default Mobile App (TOTP)"),
    period: z.number().int("period must be a whole number").min(30, "period must be 30 to 300").max(300, "period must be 30 to 300").describe("seconds per code"),
    otpCode: ZOtpCode.optional().describe("the current code: proves the user holds the generator; without it the token needs idp_api_otp_full_access"),
  })
  .meta({ id: "TotpAttach" });
export type TTotpAttach = z.infer<typeof ZTotpAttach>;

export const ZHotpAttach = z
  .strictObject({
    ...GENERATOR_FIELDS,
    name: ZName.optional().describe("display name; default Mobile App (HOTP)"),
    counter: z
      .number()
      .int("counter must be a whole number")
      .min(1, "counter must be greater than 0")
      .max(Number.MAX_SAFE_INTEGER, "counter is too large")
      .describe("the counter value of the next code the generator will show"),
  })
  .meta({ id: "HotpAttach" });
export type THotpAttach = z.infer<typeof ZHotpAttach>;

export const ZQrAttach = z
  .strictObject({
    base32Secret: z.string().min(1).max(256).describe("the secret GET …/totps/attach/qr handed out"),
    otpCode: ZOtpCode,
    name: ZName.optional().describe("display name; default Mobile App (TOTP)"),
  })
  .meta({ id: "TotpQrAttach" });
export type TQrAttach = z.infer<typeof ZQrAttach>;

export const ZOtpBinding = z
  .object({
    id: z.string().describe("binding id, <prefix>_<subject>: totp_<subject> for the QR flow and TOTP attach, hotp_<subject> for HOTP attach, hw-<serial>_<subject> for a hardware generator"),
    len: z.number().int().describe("code length"),
    name: z.string(),
  })
  .meta({ id: "OtpBinding" });

export const ZQrSecret = z
  .object({
    base64QRCode: z.string().describe("PNG image (base64, no data: prefix) of the otpauth://totp/ URI an authenticator app scans"),
    base32Secret: z.string().describe("the same secret for typing in by hand; valid for 10 minutes"),
  })
  .meta({ id: "TotpQrSecret" });

export const ZBindingParams = ZSubjectParams.extend({ id: z.string().min(1).max(400).describe("binding id <prefix>_<subject>") });
