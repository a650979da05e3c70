import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { eventActorOf } from "../http/request-context.ts";
import { putDefinition, readDefinition, removeDefinition } from "./definitions.service.ts";
import { grantRights, revokeRights } from "./grants.service.ts";
import { rightsOfAnswer, rightsOnAnswer, rightsOnV4 } from "./listings.service.ts";
import {
  ZDeleteDefinitionQuery,
  ZRightDefinition,
  ZRightDefinitionInput,
  ZRightNameParams,
  ZRightRecord,
  ZRightsOf,
  ZRightsOn,
  ZRightsOnV4,
  ZRightsOnV4Query,
} from "./rights.schemas.ts";

const TAGS = ["Access rights (v3)"];
const ADMIN_TAGS = ["Right definitions (admin v3)"];
// The scope table lists idp_api_sys_rights_chg among the user scopes too, but a definition changes what
// every grant means: an end user's token must never rewrite one, so only system tokens are accepted.
const DEFINITIONS_AUTH = { kind: "bearer", system: ["idp_api_sys_rights_chg"] } as const;
const SYSTEM_ONLY = " Departure for security: system-mode tokens only; a user-mode token is refused with 401 wrong_token_mode whatever its scopes.";
const FULL_ACCESS = ["idp_rights_full_access"];
// A user reads the rights of (and on) itself with idp_user_rights, also written idp_api_user_rights.
const USER_READ = ["idp_user_rights", "idp_api_user_rights"];

const ZSub = z.object({ sub: z.string().min(1).max(256).describe("user id (sub), or `current` in user mode") });
const ZAppId = z.object({ app_id: z.string().min(1).max(256).describe("application (client) id") });
const ZGrpId = z.object({ grp_id: z.string().min(1).max(256).describe("group id") });
const ZObjectExtQuery = z.strictObject({ objectExt: z.string().min(1).max(128).optional().describe("the group's profile") });

export const getDefinitionRoute = defineRoute(
  {
    method: "GET",
    path: "/admin/api/v3/rights/{right_name}",
    summary: "Read a right definition",
    description: `\`grants\` counts the (subject, object) pairs that hold the right now.${SYSTEM_ONLY}`,
    tags: ADMIN_TAGS,
    auth: DEFINITIONS_AUTH,
    params: ZRightNameParams,
    response: { status: 200, description: "The definition", schema: ZRightDefinition },
    errors: ["rights.definition_not_found", "request.invalid_values"],
  },
  ({ params }) => readDefinition(params.right_name),
);

export const putDefinitionRoute = defineRoute(
  {
    method: "PUT",
    path: "/admin/api/v3/rights/{right_name}",
    summary: "Create or replace a right definition",
    description:
      "The body is the whole definition. Narrowing the kinds keeps existing grants (revoke them as usual); new grants must fit. " +
      `The built-in change_password and change_attrs keep their kinds (user on user); their descriptions may change.${SYSTEM_ONLY}`,
    tags: ADMIN_TAGS,
    auth: DEFINITIONS_AUTH,
    params: ZRightNameParams,
    body: ZRightDefinitionInput,
    response: { status: 200, description: "The stored definition", schema: ZRightDefinition },
    errors: ["rights.builtin", "request.invalid_values"],
  },
  ({ ctx, params, body }) => putDefinition(params.right_name, body, eventActorOf(ctx)),
);

export const deleteDefinitionRoute = defineRoute(
  {
    method: "DELETE",
    path: "/admin/api/v3/rights/{right_name}",
    summary: "Delete a right definition",
    description:
      "Refused with 409 right_in_use (params.grants) while the right is granted. With `?force=true` the definition and every grant of it " +
      `are deleted in one transaction. Built-in rights cannot be deleted.${SYSTEM_ONLY}`,
    tags: ADMIN_TAGS,
    auth: DEFINITIONS_AUTH,
    params: ZRightNameParams,
    query: ZDeleteDefinitionQuery,
    response: { status: 204, description: "Deleted" },
    errors: ["rights.definition_not_found", "rights.definition_in_use", "rights.builtin", "request.invalid_values"],
  },
  async ({ ctx, params, query }) => {
    await removeDefinition(params.right_name, query.force === "true", eventActorOf(ctx));
  },
);

const RECORD_ERRORS = ["rights.unknown_right", "rights.unknown_user", "rights.unknown_group", "rights.unknown_rp"] as const;

export const grantRightsRoute = defineRoute(
  {
    method: "PUT",
    path: "/api/v3/rights",
    summary: "Grant rights",
    description:
      "Adds the tags to each right of the subject on the object (a right already held keeps its other tags). Every right must be defined " +
      "for this kind of subject and object (400 right_kind_not_allowed otherwise). Nothing changes on any error. A security event " +
      "rights.granted records who, what, the tags and the client.",
    tags: TAGS,
    auth: { kind: "bearer", system: FULL_ACCESS },
    body: ZRightRecord,
    response: { status: 204, description: "Granted" },
    errors: [...RECORD_ERRORS, "rights.kind_not_allowed"],
  },
  async ({ ctx, body }) => {
    await grantRights(ctx, body);
  },
);

export const revokeRightsRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/rights",
    summary: "Revoke rights",
    description:
      "Removes just the listed tags of each right; a right goes when its last tag does, so to remove a right fully list all its tags. " +
      "Tags or rights not held are ignored (204). A security event rights.revoked records who, what, the tags and the client.",
    tags: TAGS,
    auth: { kind: "bearer", system: FULL_ACCESS },
    body: ZRightRecord,
    response: { status: 204, description: "Revoked" },
    errors: [...RECORD_ERRORS],
  },
  async ({ ctx, body }) => {
    await revokeRights(ctx, body);
  },
);

const OF_DESC = "Keys: a user is its id, an application `its|<app_id>`, a group `grps|<grp_id>|<profile>`. An unknown subject is 400.";
const ON_DESC = "Keys: a user is its id, an application `its|<app_id>`. Each right once, whatever its tags. An unknown object is 400.";

export const rightsOfUserRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/rights/of/{sub}",
    summary: "Rights of a user (as subject)",
    description: `Object key → right name → tags. ${OF_DESC} A user token (idp_user_rights) reads only its own.`,
    tags: TAGS,
    auth: { kind: "bearer", user: USER_READ, system: FULL_ACCESS, subjectParam: "sub", noCurrentUser: "rights.unknown_user" },
    params: ZSub,
    response: { status: 200, description: "The user's rights", schema: ZRightsOf },
    errors: ["rights.unknown_user"],
  },
  ({ params }) => rightsOfAnswer("user", params.sub),
);

export const rightsOfAppRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/rights/of/its/{app_id}",
    summary: "Rights of an application (as subject)",
    description: `Object key → right name → tags. ${OF_DESC}`,
    tags: TAGS,
    auth: { kind: "bearer", system: FULL_ACCESS },
    params: ZAppId,
    response: { status: 200, description: "The application's rights", schema: ZRightsOf },
    errors: ["rights.unknown_rp"],
  },
  ({ params }) => rightsOfAnswer("its", params.app_id),
);

export const rightsOnUserRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/rights/on/{sub}",
    summary: "Rights on a user",
    description: `Subject key → right names. ${ON_DESC} A user token (idp_user_rights) reads only those on itself.`,
    tags: TAGS,
    auth: { kind: "bearer", user: USER_READ, system: FULL_ACCESS, subjectParam: "sub", noCurrentUser: "rights.unknown_user" },
    params: ZSub,
    response: { status: 200, description: "Who holds which rights on the user", schema: ZRightsOn },
    errors: ["rights.unknown_user"],
  },
  ({ params }) => rightsOnAnswer("user", params.sub),
);

export const rightsOnAppRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/rights/on/its/{app_id}",
    summary: "Rights on an application",
    description: `Subject key → right names. ${ON_DESC}`,
    tags: TAGS,
    auth: { kind: "bearer", system: FULL_ACCESS },
    params: ZAppId,
    response: { status: 200, description: "Who holds which rights on the application", schema: ZRightsOn },
    errors: ["rights.unknown_rp"],
  },
  ({ params }) => rightsOnAnswer("its", params.app_id),
);

export const rightsOnGroupRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/rights/on/grps/{grp_id}",
    summary: "Rights on a group",
    description: `Subject key → right names. ${ON_DESC} objectExt names the group's profile; a group not in that profile is unknown.`,
    tags: TAGS,
    auth: { kind: "bearer", system: FULL_ACCESS },
    params: ZGrpId,
    query: ZObjectExtQuery,
    response: { status: 200, description: "Who holds which rights on the group", schema: ZRightsOn },
    errors: ["rights.unknown_group", "request.invalid_values"],
  },
  ({ params, query }) => rightsOnAnswer("grps", params.grp_id, query.objectExt),
);

export const rightsOnV4Route = defineRoute(
  {
    method: "GET",
    path: "/api/v4/rights/on/{subjectId}",
    summary: "Rights on a user, with tags and subject types, paginated",
    description:
      "A page of `limit` subjects (users and applications) holding rights on the user, ordered by type then id, each with its rights " +
      "and their tags. Keyset pagination: `next` is the last subject of the page; pass it as `after` for the following page. Rights " +
      "granted or revoked between pages are seen on the pages not yet read, and no subject repeats or is skipped because of them.",
    tags: ["Access rights (v4)"],
    auth: { kind: "bearer", user: USER_READ, system: FULL_ACCESS, subjectParam: "subjectId", noCurrentUser: "rights.unknown_user" },
    params: z.object({ subjectId: z.string().min(1).max(256).describe("user id (sub), or `current` in user mode") }),
    query: ZRightsOnV4Query,
    response: { status: 200, description: "A page of subjects with their rights on the user", schema: ZRightsOnV4 },
    errors: ["rights.unknown_user", "request.invalid_values"],
  },
  ({ params, query }) => rightsOnV4(params.subjectId, query.limit, query.after),
);

export const RIGHTS_ROUTES = [
  getDefinitionRoute,
  putDefinitionRoute,
  deleteDefinitionRoute,
  grantRightsRoute,
  revokeRightsRoute,
  rightsOfUserRoute,
  rightsOfAppRoute,
  rightsOnUserRoute,
  rightsOnAppRoute,
  rightsOnGroupRoute,
  rightsOnV4Route,
];
