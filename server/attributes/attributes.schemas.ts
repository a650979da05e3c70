import { z } from "zod";
import { patternProblem } from "./attribute-pattern.ts";

export const ATTRIBUTE_TYPES = ["string", "boolean", "number", "date", "phone", "email", "string_list"] as const;
export type TAttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Contacts are {value, vrf}; everything else is a plain JSON value. */
export const CONTACT_TYPES: readonly TAttributeType[] = ["phone", "email"];

/**
 * The scopes under which a client reads or changes attributes. Per client and per scope the console
 * selects which attributes it may touch (the contract's "OAuth 2.0 tab, scopes block").
 */
export const ATTRIBUTE_SCOPES = ["idp_api_user", "idp_api_user_chg", "idp_api_sys_users", "idp_api_sys_users_chg"] as const;
export type TAttributeScope = (typeof ATTRIBUTE_SCOPES)[number];

const ZPattern = z
  .string()
  .max(500)
  .superRefine((p, ctx) => {
    const problem = patternProblem(p);
    if (problem) ctx.addIssue({ code: "custom", message: `must be a regular expression in RE2 syntax (no backreferences or lookaround): ${problem}` });
  });

export const ZValidators = z.strictObject({
  minLength: z.number().int().min(0).max(10_000).optional(),
  maxLength: z.number().int().min(1).max(10_000).optional(),
  pattern: ZPattern.optional(),
  /** Named formats for strings: uri, uuid or digits. */
  format: z.enum(["uri", "uuid", "digits"]).optional(),
});
export type TValidators = z.infer<typeof ZValidators>;

export const ZAttributeName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "an attribute name is 1-64 lower-case letters, digits or _ and starts with a letter");

export const ZAttributeDef = z
  .strictObject({
    name: ZAttributeName,
    type: z.enum(ATTRIBUTE_TYPES),
    required: z.boolean().default(false),
    unique: z.boolean().default(false),
    unmodifiable: z.boolean().default(false),
    searchable: z.boolean().default(false),
    validators: ZValidators.default({}),
    aliases: z.array(ZAttributeName).max(10).default([]),
  })
  .refine((a) => !a.aliases.includes(a.name), { message: "an alias must differ from the name", path: ["aliases"] })
  .refine((a) => !(a.unique && a.type === "boolean"), { message: "a boolean cannot be unique", path: ["unique"] });
export type TAttributeDef = z.infer<typeof ZAttributeDef>;
export type TAttributeDefInput = z.input<typeof ZAttributeDef>;

/** Attributes the service itself relies on: they can be adjusted but never removed or retyped. */
export const BUILTIN_TYPES: Record<string, TAttributeType> = {
  sub: "string",
  locked: "boolean",
  phone_number: "phone",
  email: "email",
};

export const ZAttributeSelection = z.strictObject({
  scope: z.enum(ATTRIBUTE_SCOPES),
  /** null: every attribute of the catalog (the default). */
  attributes: z.array(ZAttributeName).max(200).nullable(),
});
export type TAttributeSelection = z.infer<typeof ZAttributeSelection>;
