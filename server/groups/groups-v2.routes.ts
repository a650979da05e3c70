import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { eventActorOf } from "../http/request-context.ts";
import { ZV2Errors } from "../rights/rights.schemas.ts";
import { asValidationError, v2Body } from "../http/v2-errors.ts";
import { toGroupV2, ZChangeGroupV2, ZCreateGroupV2, ZGroupV2, ZListQueryV2, ZReadQueryV2 } from "./api/v2.ts";
import { createGroup, deleteGroup, groupOrNotFound, listGroups, replaceGroup } from "./groups.service.ts";
import { ZGroupId } from "./groups.schemas.ts";
import { addMembers, removeMember } from "./members.service.ts";

/*
 * The older group operations, a thin mapper over the v3 services: same data, same rules, the v2
 * error body. Bad input (malformed body, an attribute the profile refuses, an unknown member) is
 * validation_error with params.field and params.reason, as in the v2 rights operations.
 */

const TAGS = ["Groups (v2, deprecated)"];
const V3 = "Deprecated: use the v3 group operations (`/api/v3/groups/…`).";
// Every v2 group operation: HTTP Basic of a client holding idp_groups, the v2 error body, deprecated.
const V2 = { tags: TAGS, deprecated: true, auth: { kind: "basic", scopes: ["idp_groups"] }, errorShape: "v2" } as const;
const ZIdParams = z.object({ id: ZGroupId.describe("group id") });
const INVALID = { status: 400, description: "validation_error: bad body, an attribute the profile refuses, an unknown member (params.field, params.reason)", schema: ZV2Errors };

/** Input problems the services report, recast as validation_error under `field`. */
const asV2 = (field: string) => (e: unknown) => asValidationError(e, field);

export const listGroupsV2Route = defineRoute(
  {
    method: "GET",
    path: "/api/v2/grps",
    summary: "List groups",
    description: `${V3} In id order, a page at a time: pass the last id as \`after\` for the next page. 404 for an unknown profile.`,
    ...V2,
    query: ZListQueryV2,
    response: { status: 200, description: "Groups", schema: z.array(ZGroupV2) },
    errors: ["group.profile_not_found"],
  },
  async ({ query }) => (await listGroups(query.profile, query.after, query.limit, query.expand === "members")).map((g) => toGroupV2(g, query.expand === "members")),
);

export const createGroupV2Route = defineRoute(
  {
    method: "POST",
    path: "/api/v2/grps",
    summary: "Create a group",
    description: `${V3} As POST /api/v3/groups/{profile}/{id}: 409 group_exists when the id is taken, 404 for an unknown profile.`,
    ...V2,
    jsonBody: ZCreateGroupV2,
    response: { status: 201, description: "The new group", schema: ZGroupV2 },
    otherResponses: [INVALID],
    errors: ["group.exists", "group.profile_not_found", "request.too_large"],
  },
  async ({ ctx, request }) => {
    const body = await v2Body(ZCreateGroupV2, request);
    return toGroupV2(await createGroup(body.profile, body.id, body.attributes, eventActorOf(ctx)).catch(asV2("attributes")), true);
  },
);

export const getGroupV2Route = defineRoute(
  {
    method: "GET",
    path: "/api/v2/grps/{id}",
    summary: "Read a group",
    description: `${V3} Members only with \`expand=members\`.`,
    ...V2,
    params: ZIdParams,
    query: ZReadQueryV2,
    response: { status: 200, description: "The group", schema: ZGroupV2 },
    errors: ["group.not_found"],
  },
  async ({ params, query }) => toGroupV2(await groupOrNotFound(params.id), query.expand === "members"),
);

export const changeGroupV2Route = defineRoute(
  {
    method: "PUT",
    path: "/api/v2/grps/{id}",
    summary: "Replace the attributes of a group",
    description: `${V3} As PUT /api/v3/groups/{profile}/{id}: the attributes become exactly the body's; with \`instanceId\`, 409 when the group changed since.`,
    ...V2,
    params: ZIdParams,
    jsonBody: ZChangeGroupV2,
    response: { status: 200, description: "The group after the change", schema: ZGroupV2 },
    otherResponses: [INVALID],
    errors: ["group.not_found", "group.stale_instance", "request.too_large"],
  },
  async ({ ctx, params, request }) => {
    const body = await v2Body(ZChangeGroupV2, request);
    return toGroupV2(await replaceGroup(undefined, params.id, body.attributes, body.instanceId, eventActorOf(ctx)).catch(asV2("attributes")), true);
  },
);

export const deleteGroupV2Route = defineRoute(
  {
    method: "DELETE",
    path: "/api/v2/grps/{id}",
    summary: "Delete a group",
    description: `${V3} Its memberships and the rights on it go with it.`,
    ...V2,
    params: ZIdParams,
    response: { status: 204, description: "Deleted" },
    errors: ["group.not_found"],
  },
  async ({ ctx, params }) => {
    await deleteGroup(undefined, params.id, eventActorOf(ctx));
  },
);

const ZMemberParams = ZIdParams.extend({ subjectId: z.string().min(1).max(256).describe("member account id (sub)") });

export const addMemberV2Route = defineRoute(
  {
    method: "PUT",
    path: "/api/v2/grps/{id}/members/{subjectId}",
    summary: "Add a member to a group",
    description: `${V3} Adding a member again changes nothing; an unknown account is validation_error (params.reason unknown_user).`,
    ...V2,
    params: ZMemberParams,
    response: { status: 204, description: "Added (or already a member)" },
    otherResponses: [INVALID],
    errors: ["group.not_found"],
  },
  async ({ ctx, params }) => {
    await addMembers(undefined, params.id, [params.subjectId], eventActorOf(ctx)).catch(asV2("subjectId"));
  },
);

export const removeMemberV2Route = defineRoute(
  {
    method: "DELETE",
    path: "/api/v2/grps/{id}/members/{subjectId}",
    summary: "Remove a member from a group",
    description: `${V3} Removing an account that is not a member changes nothing.`,
    ...V2,
    params: ZMemberParams,
    response: { status: 204, description: "Removed (or was not a member)" },
    otherResponses: [INVALID],
    errors: ["group.not_found"],
  },
  async ({ ctx, params }) => {
    await removeMember(ctx, undefined, params.id, params.subjectId, eventActorOf(ctx)).catch(asV2("subjectId"));
  },
);

export const GROUP_V2_ROUTES = [listGroupsV2Route, createGroupV2Route, getGroupV2Route, changeGroupV2Route, deleteGroupV2Route, addMemberV2Route, removeMemberV2Route];
