import { z } from "zod";

const ZUnix = z.number().int();

/** The account state object of the contract: `name` and the one time field that goes with it. */
export const ZAccountState = z
  .object({
    name: z.enum(["initial", "active", "inactivityLock", "untouchable"]),
    checkedOn: ZUnix.optional().describe("active: Unix time of the last sign-in (or of an administrator's unlock); the inactivity period counts from it"),
    on: ZUnix.optional().describe("inactivityLock: Unix time the account was locked"),
    till: ZUnix.optional().describe("untouchable: Unix time until which it cannot be locked for inactivity; absent: forever"),
  })
  .meta({ id: "AccountState" });
export type TAccountStateView = z.infer<typeof ZAccountState>;

/** Latest time accepted for `till`: 9999-12-31T23:59:59Z. */
const MAX_TILL = 253_402_300_799;

export const ZSetAccountState = z
  .strictObject({
    name: z.string().describe("`untouchable`, the only assignable state"),
    till: z
      .number()
      .int("must be a whole number of seconds")
      .min(0, "must be a Unix time")
      .max(MAX_TILL, "must be before the year 10000")
      .optional()
      .describe("Unix time until which the account stays untouchable; absent: forever; now or earlier: cancels it"),
  })
  .meta({ id: "SetAccountState" });
export type TSetAccountState = z.infer<typeof ZSetAccountState>;
