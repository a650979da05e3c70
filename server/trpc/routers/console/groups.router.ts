import { randomUUID } from "node:crypto";
import { z } from "zod";
import { adminNote } from "../../../audit/audit.service.ts";
import { listProfiles, removeProfile, saveProfile } from "../../../groups/group-profiles.service.ts";
import { consoleRequestContext, listGroupMembers, listProfileGroups } from "../../../groups/groups-console.service.ts";
import { createGroup, deleteGroup, groupOrNotFound, replaceGroup } from "../../../groups/groups.service.ts";
import { ZGroupId, ZGroupProfileImport, ZProfileName } from "../../../groups/groups.schemas.ts";
import { addMembers, removeMember } from "../../../groups/members.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZGroupRef = z.strictObject({ profile: ZProfileName, id: ZGroupId });
const ZAttrs = z.record(z.string(), z.unknown());
const ZPage = { after: z.string().min(1).max(256).optional(), limit: z.number().int().min(1).max(100).default(25) };
const ZSub = z.string().min(1).max(256);

/**
 * Group profiles, groups and members: adapters over the services of the REST API and the import, so
 * the same schema checks, uniqueness, instanceId guard, caches and security events apply, the
 * administrator acting.
 */
export const groupsRouter = createRouter({
  profiles: consoleReadProcedure.query(() => listProfiles()),

  /** `create` refuses a name that exists (409) rather than replacing its schema. */
  saveProfile: adminProcedure
    .input(ZGroupProfileImport.safeExtend({ create: z.boolean() }))
    .mutation(({ input: { create, ...profile }, ctx }) => saveProfile(profile, create, ctx.actor, adminNote(ctx.actor))),

  removeProfile: adminProcedure.input(z.strictObject({ name: ZProfileName })).mutation(({ input, ctx }) => removeProfile(input.name, ctx.actor, adminNote(ctx.actor))),

  list: consoleReadProcedure
    .input(z.strictObject({ profile: ZProfileName, prefix: z.string().trim().max(128).default(""), ...ZPage }))
    .query(({ input }) => listProfileGroups(input)),

  /** The group without its member list (a group may have thousands: `members` pages them). */
  get: consoleReadProcedure.input(ZGroupRef).query(async ({ input }) => {
    const { members, ...group } = await groupOrNotFound(input.id, input.profile);
    return { ...group, memberCount: members.length };
  }),

  create: adminProcedure
    .input(ZGroupRef.extend({ attrs: ZAttrs }))
    .mutation(async ({ input, ctx }) => (await createGroup(input.profile, input.id, input.attrs, ctx.actor)).id),

  /** instanceId is required here: the console always edits what it read, and a stale edit is refused (409). */
  update: adminProcedure
    .input(ZGroupRef.extend({ attrs: ZAttrs, instanceId: z.string().min(1).max(256) }))
    .mutation(async ({ input, ctx }) => (await replaceGroup(input.profile, input.id, input.attrs, input.instanceId, ctx.actor)).instanceId),

  remove: adminProcedure.input(ZGroupRef).mutation(({ input, ctx }) => deleteGroup(input.profile, input.id, ctx.actor)),

  members: consoleReadProcedure.input(ZGroupRef.extend(ZPage)).query(({ input }) => listGroupMembers(input)),

  addMember: userManagerProcedure.input(ZGroupRef.extend({ sub: ZSub })).mutation(({ input, ctx }) => addMembers(input.profile, input.id, [input.sub], ctx.actor)),

  removeMember: userManagerProcedure
    .input(ZGroupRef.extend({ sub: ZSub }))
    .mutation(({ input, ctx }) => removeMember(consoleRequestContext(randomUUID()), input.profile, input.id, input.sub, ctx.actor)),
});
