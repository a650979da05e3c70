import { z } from "zod";

/** Longer text is no memorable question or answer; the bound also caps the hashing input. */
export const MAX_QUESTION = 500;
export const MAX_ANSWER = 500;

const ZQuestion = z.string().trim().min(1, "must not be empty").max(MAX_QUESTION, `must be at most ${MAX_QUESTION} characters`);
const ZAnswer = z
  .string()
  .max(MAX_ANSWER, `must be at most ${MAX_ANSWER} characters`)
  .refine((a) => a.trim() !== "", "must not be empty")
  .describe("input only: compared ignoring case, Unicode compatibility forms and runs of spaces; never returned or stored in clear");

export const ZSecurityQuestion = z.object({ question: z.string() }).meta({ id: "SecurityQuestion" });
export type TSecurityQuestion = z.infer<typeof ZSecurityQuestion>;

export const ZSetSecurityQuestion = z.strictObject({ question: ZQuestion, answer: ZAnswer }).meta({ id: "SetSecurityQuestion" });
export type TSetSecurityQuestion = z.infer<typeof ZSetSecurityQuestion>;

export const ZCheckSecurityQuestion = z
  .strictObject({ question: z.string().max(MAX_QUESTION), answer: z.string().max(MAX_ANSWER) })
  .meta({ id: "CheckSecurityQuestion" });
export type TCheckSecurityQuestion = z.infer<typeof ZCheckSecurityQuestion>;
