import { z } from "zod";

/**
 * A character group of a composition rule: a class of Unicode characters, or an explicit list of
 * characters. No regular expressions: a pattern written by an administrator and run on every
 * password typed is a denial-of-service waiting to happen.
 */
export const ZCharGroup = z
  .strictObject({
    desc: z.string().trim().min(1).max(200).describe("What the group is, shown to the user (e.g. \"digits\")"),
    class: z.enum(["lower", "upper", "letter", "digit", "symbol"]).optional().describe("A Unicode class: lower/upper-case letters, any letter, decimal digits, anything else"),
    chars: z.string().min(1).max(500).optional().describe("Or: the characters that belong to the group"),
    minNumberSymbols: z.number().int().min(1).max(64).default(1).describe("How many characters of the group the password needs"),
  })
  .refine((g) => (g.class === undefined) !== (g.chars === undefined), { message: "a group has either class or chars" });
export type TCharGroup = z.infer<typeof ZCharGroup>;

/** The password policy as the import document's `passwordPolicy` and the console write it. Absent fields keep their defaults. */
export const ZPasswordPolicy = z
  .strictObject({
    minLength: z.number().int().min(4).max(64).default(15).describe("to_short below this many characters (Unicode code points), for an account without a second factor"),
    minLengthWithSecondFactor: z
      .number()
      .int()
      .min(4)
      .max(64)
      .default(8)
      .describe("to_short below this many characters for an account whose second factor is on; never more than minLength"),
    maxLength: z.number().int().min(64).max(1024).default(1024).describe("too_long above this many characters; never truncated"),
    groups: z.array(ZCharGroup).max(10).default([]).describe("Composition rule (not_enough_groups); none by default"),
    minGroups: z.number().int().min(0).max(10).optional().describe("How many of the groups must be satisfied; all when absent"),
    historySize: z.number().int().min(0).max(24).default(5).describe("in_password_history: how many previous passwords are refused"),
    minNewChars: z.number().int().min(0).max(64).default(0).describe("not_enough_new_chars: distinct characters the current password lacks (user mode)"),
    minAgeSec: z.number().int().min(0).max(365 * 86_400).default(0).describe("too_young: seconds before a password may be changed again"),
    dictionary: z.boolean().default(true).describe("in_password_dic: refuse the shipped common passwords"),
    stopWords: z.array(z.string().trim().min(3).max(64)).max(1000).default([]).describe("in_stop_dic: words a password must not contain (case-insensitive)"),
  })
  .refine((p) => p.minLength <= p.maxLength, { message: "minLength must not exceed maxLength", path: ["minLength"] });
export type TPasswordPolicy = z.infer<typeof ZPasswordPolicy>;
