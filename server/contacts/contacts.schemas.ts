import { z } from "zod";

export const CONTACT_ACTIONS = { phone: "validate_mobile", email: "validate_email" } as const;
export type TContactKind = keyof typeof CONTACT_ACTIONS;

/** A pending confirmation as notes.actions and the confirmation replies carry it. */
export const ZPendingConfirmation = z
  .object({
    state: z.string(),
    exp: z.number().int().describe("seconds left before the code expires"),
    status: z.literal("code_waiting"),
    from: z.string().describe("the attribute's value before the change (empty when it had none)"),
    attr: z.string(),
    value: z.string(),
    action: z.enum(["validate_mobile", "validate_email"]),
    attempts_left: z.number().int(),
    created: z.number().int().describe("Unix time"),
    msg: z.literal("wrong_code").optional(),
  })
  .meta({ id: "PendingConfirmation" });
export type TPendingConfirmation = z.infer<typeof ZPendingConfirmation>;

export const ZConfirmationFailure = z
  .object({ id: z.string(), cause: z.enum(["no_attempts_left", "code_expired"]), attr: z.string() })
  .meta({ id: "ConfirmationFailure" });
export type TConfirmationFailure = z.infer<typeof ZConfirmationFailure>;

/** `code` submits a code; `resend` (an extension of the contract) sends a new one. */
export const ZConfirmRequest = z.discriminatedUnion("cmd", [
  z.strictObject({ cmd: z.literal("code"), value: z.string().min(1).max(32) }),
  z.strictObject({ cmd: z.literal("resend") }),
]);
export type TConfirmRequest = z.infer<typeof ZConfirmRequest>;
