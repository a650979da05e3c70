import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZChangeUserV1, ZSearchQueryV1, ZVersionRecordV1 } from "./api/v1.ts";
import { changeUserV1, getUserV1, searchUsersV1 } from "./users-v1.service.ts";

const TAGS = ["Users (v1, deprecated)"];
const V3 = "Deprecated: use the v3 attribute operations (`/api/v3/users/…`).";
// Every v1 client once had every v1 operation, whatever it was allowed elsewhere. For security each
// operation now needs the system scope of its v3 twin among the client's scopes, and the client's
// attribute selections for those scopes apply as they do in v3.
const READ = { kind: "basic", scopes: ["idp_api_sys_users"], v1: true } as const;
const CHANGE = { kind: "basic", scopes: ["idp_api_sys_users_chg"], v1: true } as const;
const ALLOWED =
  " Departure for security: the client needs idp_api_sys_users (to search and read) or idp_api_sys_users_chg (to change) among its " +
  "scopes, otherwise 401 access_denied; its attribute selections for those scopes limit what is shown, searched and changed, as in v3.";

export const searchUsersV1Route = defineRoute(
  {
    method: "GET",
    path: "/api/v1/users",
    summary: "Search accounts by one attribute",
    description: `${V3} Case-insensitive; served by an index. Only searchable attributes of the catalog can be searched.${ALLOWED}`,
    tags: TAGS,
    deprecated: true,
    auth: READ,
    query: ZSearchQueryV1,
    response: { status: 200, description: "Matching account version records, by sub", schema: z.array(ZVersionRecordV1) },
    errors: [],
  },
  ({ ctx, query }) => searchUsersV1(ctx, query.query, query.limit),
);

export const getUserV1Route = defineRoute(
  {
    method: "GET",
    path: "/api/v1/users/{instanceId}",
    summary: "Read one account version record",
    description: `${V3} Any version id of an account reads the account's current version.${ALLOWED}`,
    tags: TAGS,
    deprecated: true,
    auth: READ,
    params: z.object({ instanceId: z.string().min(1).max(1024) }),
    response: { status: 200, description: "The account version record", schema: ZVersionRecordV1 },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => getUserV1(ctx, params.instanceId),
);

export const changeUserV1Route = defineRoute(
  {
    method: "POST",
    path: "/api/v1/users",
    summary: "Change attributes of an account",
    description:
      `${V3} Attributes not listed stay unchanged; required and unmodifiable attributes cannot be deleted. ` +
      `A contact sent as it is keeps its confirmation; a new one is stored unconfirmed.${ALLOWED}`,
    tags: TAGS,
    deprecated: true,
    auth: CHANGE,
    body: ZChangeUserV1,
    response: { status: 200, description: "The new account version record", schema: ZVersionRecordV1 },
    errors: ["user.not_found", "user.stale_instance", "console.last_admin"],
  },
  ({ body, ctx }) => changeUserV1(ctx, body),
);

export const USER_V1_ROUTES = [searchUsersV1Route, getUserV1Route, changeUserV1Route];
