import { z } from "zod";
import { AppError, type TInputItem } from "../../errors/app-error.ts";
import type { TGroup } from "../groups.schemas.ts";

/** The v3 group: the Blitz shape, attributes next to instanceId, id and profile. */
export const ZGroupV3 = z
  .object({
    instanceId: z.string().describe("version of the group's attributes; send it back with PUT to refuse a change made since"),
    id: z.string(),
    profile: z.string(),
    members: z.array(z.string()).optional().describe("member account ids in id order: always in a single read, in lists with expand=members"),
  })
  .catchall(z.unknown())
  .meta({
    id: "GroupV3",
    description: "Further keys are the group's attributes, as its profile's schema defines them.",
    examples: [{ instanceId: "b3Jncy0x.Zm9vYmFyYmF6cXV4", id: "orgs-1", profile: "orgs", name: "Roga i Kopyta", inn: "7701234567", members: ["ivanov"] }],
  });
export type TGroupV3 = z.infer<typeof ZGroupV3>;

export function toGroupV3(g: TGroup, withMembers: boolean): TGroupV3 {
  return { ...g.attrs, instanceId: g.instanceId, id: g.id, profile: g.profile, ...(withMembers ? { members: g.members } : {}) };
}

/**
 * PUT and POST bodies: the attributes, flat. A read can be sent back: `instanceId` is the version
 * check (PUT), `id` and `profile` must be the path's, `members` is refused (members have their own
 * operations, and silently ignoring it would look like it worked).
 */
export const ZGroupBodyV3 = z
  .record(z.string().max(128), z.unknown())
  .default({})
  .meta({ id: "GroupBodyV3", examples: [{ name: "Roga i Kopyta", inn: "7701234567" }] });

export function fromGroupBodyV3(body: Record<string, unknown>, path: { profile: string; id: string }): { attrs: Record<string, unknown>; instanceId?: string } {
  const { instanceId, id, profile, members, ...attrs } = body;
  const items: TInputItem[] = [];
  if (instanceId !== undefined && (typeof instanceId !== "string" || instanceId.length > 1024)) items.push({ error: "wrong_value", desc: "must be the instanceId of a read", pos: "instanceId" });
  if (id !== undefined && id !== path.id) items.push({ error: "wrong_value", desc: "differs from the path's id", pos: "id" });
  if (profile !== undefined && profile !== path.profile) items.push({ error: "wrong_value", desc: "differs from the path's profile", pos: "profile" });
  if (members !== undefined) items.push({ error: "wrong_value", desc: "members change through …/members", pos: "members" });
  if (items.length) throw new AppError("request.invalid_values", { items });
  return { attrs, ...(typeof instanceId === "string" ? { instanceId } : {}) };
}

/** `expand`: a comma-separated list; `members` is the one thing there is to expand. */
export const ZExpandQuery = z.strictObject({
  expand: z
    .string()
    .max(100)
    .refine((v) => v === "" || v.split(",").every((x) => x === "members"), "the only expansion is `members`")
    .optional()
    .describe("`members`: include each group's member ids"),
});

export const expandsMembers = (q: { expand?: string }) => q.expand?.split(",").includes("members") ?? false;

/** POST …/members: the accounts to add, all or nothing. */
export const ZMembersBody = z
  .strictObject({ members: z.array(z.string().min(1).max(256)).min(1).max(1000).describe("account ids (sub)") })
  .meta({ id: "GroupMembersV3", examples: [{ members: ["ivanov", "petrov"] }] });

/** A member as POST …/members?rql=&expand=attrs answers it. */
export const ZMemberV3 = z
  .object({ sub: z.string() })
  .catchall(z.unknown())
  .meta({ id: "GroupMemberV3", description: "Further keys are the account's attributes this client may read.", examples: [{ sub: "ivanov", family_name: "Ivanov", email: { value: "ivanov@example.com", vrf: true } }] });
