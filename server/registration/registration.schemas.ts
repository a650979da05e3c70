import { z } from "zod";

export const ZInstructionName = z.enum([
  "eml-enter-code",
  "mbl-enter-code",
  "eml-try-again",
  "mbl-try-again",
  "eml-expired",
  "mbl-expired",
  "eml-no-attempts",
  "mbl-no-attempts",
]);

/** What the client should ask its user for next; `attemts` is spelled as the contract spells it. */
export const ZInstruction = z
  .object({
    name: ZInstructionName,
    email: z.string().optional(),
    mobile: z.string().optional(),
    exp: z.number().int().optional().describe("Unix time the code expires; absent once expired"),
    attemts: z.number().int().describe("wrong codes still allowed"),
  })
  .meta({ id: "RegistrationInstruction" });
export type TInstruction = z.infer<typeof ZInstruction>;

export const ZRegistrationResponse = z
  .object({
    instanceId: z.string().optional().describe("present once the account exists"),
    subject: z.string().optional().describe("present once the account exists"),
    context: z.string().describe("id for the confirmation URL; empty when nothing remains to confirm"),
    cookies: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    instructions: z.array(ZInstruction),
  })
  .meta({ id: "RegistrationResponse" });
export type TRegistrationResponse = z.infer<typeof ZRegistrationResponse>;

const ZAction = z.strictObject({
  type: z.literal("bindDynClient"),
  client_id: z.string().min(1).max(256).describe("a free client_id issued to a mobile application instance by dynamic registration"),
});

export const ZRegisterRequestV3 = z
  .strictObject({
    user: z.strictObject({
      attrs: z.record(z.string().max(64), z.unknown()).describe("catalog attributes; phone_number and email as {value, verified}"),
      credentials: z.strictObject({ password: z.string().max(4096) }).optional(),
    }),
    actions: z.array(ZAction).max(10).optional(),
  })
  .meta({ id: "RegisterRequestV3" });
export type TRegisterRequestV3 = z.infer<typeof ZRegisterRequestV3>;

/** Exactly one field: a code to check, or a request for a new code (its value is not used). */
export const ZConfirmRegistrationRequest = z
  .strictObject({
    email_code: z.string().min(1).max(32).optional(),
    sms_code: z.string().min(1).max(32).optional(),
    email_code_resend: z.string().max(320).optional().describe("any value (e.g. the address): asks for a new e-mail code"),
    sms_code_resend: z.string().max(320).optional().describe("any value (e.g. the number): asks for a new SMS code"),
  })
  .refine((b) => Object.values(b).filter((v) => v !== undefined).length === 1, {
    message: "send exactly one of email_code, sms_code, email_code_resend, sms_code_resend",
  })
  .meta({ id: "ConfirmRegistrationRequest" });
export type TConfirmRegistrationRequest = z.infer<typeof ZConfirmRegistrationRequest>;

/** v1: a flat object of attributes (v1 aliases or names) and, optionally, `password`. */
export const ZRegisterRequestV1 = z
  .record(z.string().max(64), z.unknown())
  .refine((o) => Object.keys(o).length <= 100, "at most 100 attributes")
  .meta({ id: "RegisterRequestV1" });

export const ZRegistrationResponseV1 = z
  .object({ subject: z.string(), instructions: z.array(ZInstruction), context: z.string() })
  .meta({ id: "RegistrationResponseV1" });
