import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { eventActorOf } from "../http/request-context.ts";
import { expandsMembers, fromGroupBodyV3, toGroupV3, ZExpandQuery, ZGroupBodyV3, ZGroupV3, ZMembersBody, ZMemberV3 } from "./api/v3.ts";
import { createGroup, deleteGroup, readGroup, replaceGroup } from "./groups.service.ts";
import { ZGroupId, ZProfileName } from "./groups.schemas.ts";
import { addMembers, groupsOfUser, removeMember } from "./members.service.ts";
import { AppError } from "../errors/app-error.ts";
import { requireScope } from "../http/auth-spec.ts";
import { ZRqlQueryParam } from "../rql/rql.schemas.ts";
import { PAGING_DESC, pageResponse } from "./api/paging.ts";
import { searchMembers } from "./group-search.service.ts";

const TAGS = ["Groups (v3)"];
const READ = { kind: "bearer", user: ["idp_api_groups"], system: ["idp_api_sys_groups"] } as const;
// Only system tokens change groups and add members; a user token may only leave a group (see removeMemberRoute).
const CHANGE = { kind: "bearer", system: ["idp_api_sys_groups_chg"] } as const;

const ZIdParams = z.object({ id: ZGroupId.describe("group id") });
const ZGroupParams = z.object({ profile: ZProfileName.describe("group profile"), id: ZGroupId.describe("group id") });
const ZMemberParams = ZGroupParams.extend({ subjectId: z.string().min(1).max(256).describe("member account id (sub), or `current` in user mode") });
const ZUserParams = z.object({ subjectId: z.string().min(1).max(256).describe("account id (sub), or `current` in user mode") });
// Next allows one folder name per level: groups/[id] holds GET /groups/{id}, and its subfolders are a profile's groups.
const GROUP_FOLDERS = { id: "profile", groupId: "id" };
const BODY_ERRORS = ["group.profile_not_found", "request.invalid_values"] as const;
// The operations on a profile's group: system tokens only, path folders mapped to the document's names.
const ON_GROUP = { tags: TAGS, auth: CHANGE, paramNames: GROUP_FOLDERS } as const;

export const getGroupRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/groups/{id}",
    summary: "Read a group with its members",
    description: "Ids are global, so no profile is named. A user token (idp_api_groups) reads only groups its user is a member of; any other is 404.",
    tags: TAGS,
    auth: READ,
    params: ZIdParams,
    query: ZExpandQuery,
    response: { status: 200, description: "The group; members always included", schema: ZGroupV3 },
    errors: ["group.not_found"],
  },
  async ({ ctx, params }) => toGroupV3(await readGroup(ctx, params.id), true),
);

export const createGroupRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/groups/{profile}/{id}",
    summary: "Create a group",
    description:
      "The body holds the attributes, flat, checked against the profile's schema: an unknown attribute, a wrong type or a missing required one is " +
      "400 with pos naming it; `null` is the same as leaving an attribute out. 409 group_exists when the id is taken (in any profile): of parallel " +
      "creations of one id exactly one succeeds. A security event group.created records who and the client.",
    ...ON_GROUP,
    params: ZGroupParams,
    body: ZGroupBodyV3,
    response: { status: 201, description: "The new group", schema: ZGroupV3 },
    errors: [...BODY_ERRORS, "group.exists"],
  },
  async ({ ctx, params, body }) => toGroupV3(await createGroup(params.profile, params.id, fromGroupBodyV3(body, params).attrs, eventActorOf(ctx)), true),
);

export const replaceGroupRoute = defineRoute(
  {
    method: "PUT",
    path: "/api/v3/groups/{profile}/{id}",
    summary: "Replace the attributes of a group",
    description:
      "The attributes become exactly the body's (one left out is removed); members stay. With `instanceId` (from a read) a group changed since " +
      "is refused with 409 stale_instance_id and nothing changes; without, the last writer wins. 404 when the group does not exist in this profile.",
    ...ON_GROUP,
    params: ZGroupParams,
    body: ZGroupBodyV3,
    response: { status: 200, description: "The group after the change", schema: ZGroupV3 },
    errors: [...BODY_ERRORS, "group.not_found", "group.stale_instance"],
  },
  async ({ ctx, params, body }) => {
    const { attrs, instanceId } = fromGroupBodyV3(body, params);
    return toGroupV3(await replaceGroup(params.profile, params.id, attrs, instanceId, eventActorOf(ctx)), true);
  },
);

export const deleteGroupRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/groups/{profile}/{id}",
    summary: "Delete a group",
    description: "Its memberships and every right granted on it go with it. 404 when the group does not exist in this profile.",
    ...ON_GROUP,
    params: ZGroupParams,
    response: { status: 204, description: "Deleted" },
    errors: ["group.not_found"],
  },
  async ({ ctx, params }) => {
    await deleteGroup(params.profile, params.id, eventActorOf(ctx));
  },
);

const ADD_DESC =
  "Members are accounts: one that does not exist is 400 unknown_user (params.userId) and nothing changes. Adding a member again changes nothing. " +
  "Each member added is a security event group.member_added of that account (who acted, the group, the client).";

const ZMembersQuery = z.strictObject({
  rql: ZRqlQueryParam,
  expand: z.enum(["attrs"]).optional().describe("with `rql`: `attrs` answers each member as its sub and the attributes this client may read"),
});

export const addMembersRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/groups/{profile}/{id}/members",
    summary: "Add members to a group (all or nothing), or with ?rql= list the members matching a filter",
    description:
      `Without \`rql\`: adds the body's accounts (system token with idp_api_sys_groups_chg), at most 1000 per call; 204. ${ADD_DESC} ` +
      "With `rql` (and no body): lists the group's members whose accounts match the filter — a read, with idp_api_sys_groups (system) or " +
      "idp_api_groups (user: only a group its user is a member of, else 404). Fields: `sub` and the catalog's account attributes the client may read " +
      "under idp_api_sys_users (system) or idp_api_user (user) in its attribute selection; contacts compare by their value. 200 with a list of subs, " +
      `or with \`expand=attrs\` of {sub, attributes…} as v3 user reads show them. ${PAGING_DESC}`,
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_groups"], system: ["idp_api_sys_groups", "idp_api_sys_groups_chg"] },
    params: ZGroupParams,
    paramNames: GROUP_FOLDERS,
    query: ZMembersQuery,
    body: ZMembersBody.optional(),
    response: { status: 204, description: "Added" },
    otherResponses: [{ status: 200, description: "With rql: the matching members (header X-Has-More)", schema: z.array(z.union([z.string(), ZMemberV3])) }],
    errors: ["group.not_found", "group.unknown_user", "rql.malformed", "request.invalid_values"],
  },
  async ({ ctx, params, query, body }) => {
    if (query.rql !== undefined) {
      requireScope(ctx, "idp_api_sys_groups", "idp_api_groups");
      if (body !== undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "a filter (rql) takes no body", pos: "members" }] });
      return pageResponse(await searchMembers(ctx, params.profile, params.id, query.rql, query.expand === "attrs"), (m) => m);
    }
    requireScope(ctx, "idp_api_sys_groups_chg");
    if (query.expand !== undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "expand goes with rql", pos: "expand" }] });
    if (body === undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "the accounts to add are required", pos: "members" }] });
    await addMembers(params.profile, params.id, body.members, eventActorOf(ctx));
  },
);

export const addMemberRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/groups/{profile}/{id}/members/{subjectId}",
    summary: "Add a member to a group",
    description: ADD_DESC,
    ...ON_GROUP,
    params: ZMemberParams,
    response: { status: 204, description: "Added (or already a member)" },
    errors: ["group.not_found", "group.unknown_user"],
  },
  async ({ ctx, params }) => {
    await addMembers(params.profile, params.id, [params.subjectId], eventActorOf(ctx));
  },
);

export const removeMemberRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/groups/{profile}/{id}/members/{subjectId}",
    summary: "Remove a member from a group",
    description:
      "A system token (idp_api_sys_groups_chg) removes any member; removing an account that is not a member changes nothing (204). A user token " +
      "(idp_api_groups_chg) may only leave a group itself (`current` or its own id) and only one it is a member of (else 404). A security event " +
      "group.member_removed of the member records who acted and the client.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_groups_chg"], system: ["idp_api_sys_groups_chg"], subjectParam: "subjectId" },
    params: ZMemberParams,
    paramNames: GROUP_FOLDERS,
    response: { status: 204, description: "Removed (or was not a member)" },
    errors: ["group.not_found", "group.unknown_user"],
  },
  async ({ ctx, params }) => {
    await removeMember(ctx, params.profile, params.id, params.subjectId, eventActorOf(ctx));
  },
);

const USER_GROUPS_DESC =
  "Groups in id order, each without members unless `expand=members`. A user token (idp_api_groups) reads only its own (`current` or its id).";

export const userGroupsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/grps",
    summary: "The groups of an account",
    description: USER_GROUPS_DESC,
    tags: TAGS,
    auth: { ...READ, subjectParam: "subjectId" },
    params: ZUserParams,
    query: ZExpandQuery,
    response: { status: 200, description: "The account's groups", schema: z.array(ZGroupV3) },
    errors: ["user.not_found"],
  },
  async ({ ctx, params, query }) => (await groupsOfUser(ctx, params.subjectId)).map((g) => toGroupV3(g, expandsMembers(query))),
);

export const userProfileGroupsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/grps/{profile}",
    summary: "The groups of an account in one profile",
    description: `${USER_GROUPS_DESC} 404 for an unknown profile.`,
    tags: TAGS,
    auth: { ...READ, subjectParam: "subjectId" },
    params: ZUserParams.extend({ profile: ZProfileName.describe("group profile") }),
    query: ZExpandQuery,
    response: { status: 200, description: "The account's groups of the profile", schema: z.array(ZGroupV3) },
    errors: ["user.not_found", "group.profile_not_found"],
  },
  async ({ ctx, params, query }) => (await groupsOfUser(ctx, params.subjectId, params.profile)).map((g) => toGroupV3(g, expandsMembers(query))),
);

export const GROUP_ROUTES = [getGroupRoute, createGroupRoute, replaceGroupRoute, deleteGroupRoute, addMembersRoute, addMemberRoute, removeMemberRoute, userGroupsRoute, userProfileGroupsRoute];
