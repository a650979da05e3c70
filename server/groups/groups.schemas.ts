import { z } from "zod";
import { ZAttributeName } from "../attributes/attributes.schemas.ts";

/** The types a group attribute may have: the account types without contacts. */
export const GROUP_ATTR_TYPES = ["string", "number", "boolean", "date", "string_list"] as const;
export type TGroupAttrType = (typeof GROUP_ATTR_TYPES)[number];

// Keys the v3 body and answer use for the group itself, next to its attributes.
export const RESERVED_ATTR_NAMES = ["id", "profile", "members"];

/** One attribute of a profile's schema. */
export const ZGroupAttrDef = z
  .strictObject({
    name: ZAttributeName.refine((n) => !RESERVED_ATTR_NAMES.includes(n), "id, profile and members name the group itself"),
    type: z.enum(GROUP_ATTR_TYPES),
    required: z.boolean().default(false),
    /** No two groups of the profile hold the same value (strings compared case-insensitively). */
    unique: z.boolean().optional(),
    /** Of a string, or of each item of a string_list; 1000 when not said. */
    maxLength: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((a) => !(a.unique && (a.type === "boolean" || a.type === "string_list")), { message: "a boolean or a list cannot be unique", path: ["unique"] })
  .refine((a) => a.maxLength === undefined || a.type === "string" || a.type === "string_list", { message: "maxLength is for strings", path: ["maxLength"] });
export type TGroupAttrDef = z.infer<typeof ZGroupAttrDef>;

/**
 * `search` is refused as a profile and a group id: `/api/v3/groups/search` and
 * `/api/v3/groups/{profile}/search` are the search operations.
 */
const notSearch = (v: string) => v !== "search";

export const ZProfileName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "a profile name is 1-64 lower-case letters, digits or _ and starts with a letter")
  .refine(notSearch, "`search` is not a profile name");

/** A group id follows the rules of an account's sub. */
export const ZGroupId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]*$/, "a group id is letters, digits and . _ @ + -, starting with a letter or digit")
  .refine(notSearch, "`search` is not a group id");

export const ZDescription = z.strictObject({ ru: z.string().max(500).default(""), en: z.string().max(500).default("") });

/** The import document's `groupProfiles` section. */
export const ZGroupProfileImport = z.strictObject({
  name: ZProfileName,
  description: ZDescription.default({ ru: "", en: "" }),
  attributes: z
    .array(ZGroupAttrDef)
    .max(100)
    .superRefine((defs, ctx) => {
      const seen = new Set<string>();
      defs.forEach((d, i) => {
        if (seen.has(d.name)) ctx.addIssue({ code: "custom", message: `duplicate attribute "${d.name}"`, path: [i, "name"] });
        seen.add(d.name);
      });
    })
    .default([]),
});
export type TGroupProfileImport = z.infer<typeof ZGroupProfileImport>;

/** The import document's `groups` section: `members`, when given, is the whole membership. */
export const ZGroupImport = z.strictObject({
  id: ZGroupId,
  profile: ZProfileName,
  attributes: z.record(z.string(), z.unknown()).default({}),
  members: z.array(z.string().min(1).max(256)).max(10_000).optional(),
});
export type TGroupImport = z.infer<typeof ZGroupImport>;

export type TGroupAttrValue = string | number | boolean | string[];
export type TGroupProfile = { name: string; description: { ru: string; en: string }; attributes: TGroupAttrDef[] };
/** A group as the services see it; `members` are account ids in id order. */
export type TGroup = { id: string; profile: string; instanceId: string; attrs: Record<string, TGroupAttrValue>; members: string[] };
