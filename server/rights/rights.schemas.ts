import { z } from "zod";

/** A right's name: what grants, listings and definitions call it. */
export const ZRightName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, "a right name is 1-128 letters, digits or _ . : - and starts with a letter or digit");

export const SUBJECT_KINDS = ["user", "application"] as const;
export const OBJECT_KINDS = ["user", "group", "application"] as const;
export type TSubjectKind = (typeof SUBJECT_KINDS)[number];
export type TObjectKind = (typeof OBJECT_KINDS)[number];

const kindList = <T extends readonly [string, ...string[]]>(kinds: T) =>
  z
    .array(z.enum(kinds))
    .min(1)
    .max(kinds.length)
    .refine((a) => new Set(a).size === a.length, "kinds must not repeat");

const ZDescription = z.strictObject({
  ru: z.string().max(1000).default(""),
  en: z.string().max(1000).default(""),
});

/** PUT /admin/api/v3/rights/{right_name}: the whole definition (it replaces a stored one). */
export const ZRightDefinitionInput = z
  .strictObject({
    description: ZDescription.default({ ru: "", en: "" }).describe("what the right allows, in Russian and English"),
    subjectKinds: kindList(SUBJECT_KINDS).describe("who may receive it"),
    objectKinds: kindList(OBJECT_KINDS).describe("what it may be granted on"),
  })
  .meta({
    id: "RightDefinitionInput",
    examples: [{ description: { ru: "Чтение отчётов", en: "Read reports" }, subjectKinds: ["user", "application"], objectKinds: ["user", "group", "application"] }],
  });
export type TRightDefinitionInput = z.infer<typeof ZRightDefinitionInput>;

/** The built-in rights: user on user, always defined. */
export const BUILTIN_RIGHT_NAMES = ["change_password", "change_attrs"];

/** The import document's `rights` section: definitions with their names; a built-in one only as user on user. */
export const ZRightDefinitionImport = ZRightDefinitionInput.extend({ name: ZRightName }).superRefine((d, ctx) => {
  const userOnUser = d.subjectKinds.join() === "user" && d.objectKinds.join() === "user";
  if (BUILTIN_RIGHT_NAMES.includes(d.name) && !userOnUser) {
    ctx.addIssue({ code: "custom", message: `"${d.name}" is built in: its kinds stay user on user`, path: ["subjectKinds"] });
  }
});
export type TRightDefinitionImport = z.infer<typeof ZRightDefinitionImport>;

export const ZRightDefinition = z
  .object({
    name: z.string(),
    description: z.object({ ru: z.string(), en: z.string() }),
    subjectKinds: z.array(z.enum(SUBJECT_KINDS)),
    objectKinds: z.array(z.enum(OBJECT_KINDS)),
    builtin: z.boolean().describe("change_password and change_attrs: cannot be deleted, their kinds cannot change"),
    grants: z.number().int().describe("how many granted (subject, object) pairs hold this right"),
  })
  .meta({ id: "RightDefinition" });
export type TRightDefinition = z.infer<typeof ZRightDefinition>;

export const ZRightNameParams = z.object({ right_name: ZRightName });
export const ZDeleteDefinitionQuery = z.strictObject({
  force: z.enum(["true", "false"]).optional().describe("true: delete even while granted, revoking every grant of it"),
});

const ZId = z.string().min(1).max(256);
// A tag is shown in listings and the console: any text (any script) without control characters or surrounding spaces.
const ZTag = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\p{Cc}]+$/u, "a tag has no control characters")
  .refine((t) => t.trim() === t, "a tag has no leading or trailing spaces");
const uniqueList = <T extends z.ZodType<string>>(item: T, max: number, what: string) =>
  z
    .array(item)
    .min(1, `at least one ${what}`)
    .max(max)
    .refine((a) => new Set(a).size === a.length, `${what}s must not repeat`);

/** The contract's access right record (PUT and DELETE /api/v3/rights). */
export const ZRightRecord = z
  .strictObject({
    subject: ZId.describe("user id, or application id with subjectType its"),
    subjectType: z.literal("its").optional().describe("only for an application; omitted for a user"),
    object: ZId.describe("user id, group id (objectType grps) or application id (objectType its)"),
    objectType: z.enum(["grps", "its"]).optional().describe("grps for a group, its for an application; omitted for a user"),
    objectExt: z.string().min(1).max(128).optional().describe("objectType grps: the group's profile (checked against the group when given)"),
    rights: uniqueList(ZRightName, 50, "right").describe("right names; each must be defined"),
    tags: uniqueList(ZTag, 50, "tag").describe("why the rights are given; a right stays while one of its tags remains"),
  })
  .meta({
    id: "RightRecord",
    examples: [
      { subject: "ivanov", object: "petrov", rights: ["change_password"], tags: ["hr-2026-17"] },
      { subject: "crm-app", subjectType: "its", object: "ivanov", rights: ["read_reports"], tags: ["sync"] },
      { subject: "ivanov", object: "crm-app", objectType: "its", rights: ["read_reports"], tags: ["project-x"] },
    ],
  });
export type TRightRecord = z.infer<typeof ZRightRecord>;

/** GET …/rights/of/…: object key → right name → tags. */
export const ZRightsOf = z
  .record(z.string(), z.record(z.string(), z.array(z.string())))
  .meta({ id: "RightsOf", example: { petrov: { change_password: ["hr-2026-17"] }, "its|crm-app": { read_reports: ["project-x"] }, "grps|g-42|orgs": { read_reports: ["audit"] } } });
/** GET …/rights/on/…: subject key → right names. */
export const ZRightsOn = z
  .record(z.string(), z.array(z.string()))
  .meta({ id: "RightsOn", example: { ivanov: ["change_attrs", "change_password"], "its|crm-app": ["read_reports"] } });

export const ZRightsOnV4 = z
  .object({
    items: z.array(
      z.object({
        subject: z.string(),
        subjectType: z.enum(["user", "its"]).describe("user, or its for an application"),
        rights: z.array(z.object({ name: z.string(), tags: z.array(z.string()) })),
      }),
    ),
    next: z.string().optional().describe("cursor of the next page (pass as `after`); absent on the last page"),
  })
  .meta({
    id: "RightsOnV4",
    example: {
      items: [
        { subject: "crm-app", subjectType: "its", rights: [{ name: "read_reports", tags: ["sync"] }] },
        { subject: "ivanov", subjectType: "user", rights: [{ name: "change_password", tags: ["hr-2026-17", "manager"] }] },
      ],
      next: "WyJ1c2VyIiwiaXZhbm92Il0",
    },
  });
export type TRightsOnV4 = z.infer<typeof ZRightsOnV4>;

export const ZRightsOnV4Query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100).describe("subjects per page (1-500, default 100)"),
  after: z.string().max(600).optional().describe("the `next` of the previous page"),
});

/** One item of the v2 rights change of a master on its subordinate accounts: the master (subject) on the subordinate (object), both users. */
export const ZSlaveRight = z
  .strictObject({
    subject: ZRightRecord.shape.subject.describe("the master (leading) account's id; with a user token, the token's user"),
    object: ZRightRecord.shape.object.describe("the subordinate account's id"),
    rights: ZRightRecord.shape.rights,
    tags: ZRightRecord.shape.tags,
  })
  .meta({ id: "SlaveRight", examples: [{ subject: "ivanov", object: "ivanov-jr", rights: ["change_password", "change_attrs"], tags: ["family"] }] });

export const ZSlaveRightsChange = z
  .strictObject({
    update: z.array(ZSlaveRight).max(50).describe("grants: the tags are added to each right (a user token: only to rights its user already holds); an unused block is []"),
    delete: z.array(ZSlaveRight).max(50).describe("revokes: just the listed tags are removed; a right goes with its last tag; an unused block is []"),
  })
  .meta({ id: "SlaveRightsChange" });
export type TSlaveRightsChange = z.infer<typeof ZSlaveRightsChange>;

/** The v2 error body: {errors:[{code, desc, params}]}. */
export const ZV2Errors = z
  .object({ errors: z.array(z.object({ code: z.string(), desc: z.string(), params: z.record(z.string(), z.unknown()).describe("`field` names the input; `reason` the finer code") })) })
  .meta({ id: "V2Errors", examples: [{ errors: [{ code: "validation_error", desc: "user not found", params: { userId: "nobody", field: "update[0]", reason: "unknown_user" } }] }] });
