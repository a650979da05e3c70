import { z } from "zod";
import { ZGroupId, ZProfileName, type TGroup } from "../groups.schemas.ts";

/** The v2 group: attributes under `attributes`, members only with expand=members. */
export const ZGroupV2 = z
  .object({
    id: z.string(),
    profile: z.string(),
    instanceId: z.string().describe("version of the attributes; send it with PUT to refuse a change made since"),
    attributes: z.record(z.string(), z.unknown()),
    members: z.array(z.string()).optional().describe("member account ids in id order, with expand=members"),
  })
  .meta({ id: "GroupV2", examples: [{ id: "orgs-1", profile: "orgs", instanceId: "b3Jncy0x.Zm9vYmFyYmF6cXV4", attributes: { name: "Roga i Kopyta" }, members: ["ivanov"] }] });
export type TGroupV2 = z.infer<typeof ZGroupV2>;

export function toGroupV2(g: TGroup, withMembers: boolean): TGroupV2 {
  return { id: g.id, profile: g.profile, instanceId: g.instanceId, attributes: g.attrs, ...(withMembers ? { members: g.members } : {}) };
}

export const ZCreateGroupV2 = z
  .strictObject({ id: ZGroupId, profile: ZProfileName, attributes: z.record(z.string().max(128), z.unknown()).default({}) })
  .meta({ id: "CreateGroupV2", examples: [{ id: "orgs-1", profile: "orgs", attributes: { name: "Roga i Kopyta" } }] });

export const ZChangeGroupV2 = z
  .strictObject({ attributes: z.record(z.string().max(128), z.unknown()), instanceId: z.string().min(1).max(1024).optional() })
  .meta({ id: "ChangeGroupV2", examples: [{ attributes: { name: "Roga i Kopyta" } }] });

export const ZListQueryV2 = z.strictObject({
  profile: ZProfileName.optional().describe("only groups of this profile"),
  expand: z.enum(["members"]).optional().describe("`members`: include each group's member ids"),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe("at most this many groups (1-1000, default 100)"),
  after: ZGroupId.optional().describe("the last id of the previous page"),
});

export const ZReadQueryV2 = z.strictObject({ expand: z.enum(["members"]).optional().describe("`members`: include the member ids") });
