import { z } from "zod";
import { defineRoute } from "../http/define-route.ts";
import { eventActorOf } from "../http/request-context.ts";
import { ZChangeUserV1, ZSearchQueryV1, ZVersionRecordV1 } from "./api/v1.ts";
import { changeUserV1, getUserV1, searchUsersV1 } from "./users-v1.service.ts";

const TAGS = ["Users (v1, deprecated)"];
const V3 = "Deprecated: use the v3 attribute operations (`/api/v3/users/…`).";

export const searchUsersV1Route = defineRoute(
  {
    method: "GET",
    path: "/api/v1/users",
    summary: "Search accounts by one attribute",
    description: `${V3} Case-insensitive; served by an index. Only searchable attributes of the catalog can be searched.`,
    tags: TAGS,
    deprecated: true,
    auth: { kind: "basic" },
    query: ZSearchQueryV1,
    response: { status: 200, description: "Matching account version records, by sub", schema: z.array(ZVersionRecordV1) },
    errors: [],
  },
  ({ query }) => searchUsersV1(query.query, query.limit),
);

export const getUserV1Route = defineRoute(
  {
    method: "GET",
    path: "/api/v1/users/{instanceId}",
    summary: "Read one account version record",
    description: `${V3} Any version id of an account reads the account's current version.`,
    tags: TAGS,
    deprecated: true,
    auth: { kind: "basic" },
    params: z.object({ instanceId: z.string().min(1).max(1024) }),
    response: { status: 200, description: "The account version record", schema: ZVersionRecordV1 },
    errors: ["user.not_found"],
  },
  ({ params }) => getUserV1(params.instanceId),
);

export const changeUserV1Route = defineRoute(
  {
    method: "POST",
    path: "/api/v1/users",
    summary: "Change attributes of an account",
    description:
      `${V3} Attributes not listed stay unchanged; required and unmodifiable attributes cannot be deleted. ` +
      "A contact sent as it is keeps its confirmation; a new one is stored unconfirmed.",
    tags: TAGS,
    deprecated: true,
    auth: { kind: "basic" },
    body: ZChangeUserV1,
    response: { status: 200, description: "The new account version record", schema: ZVersionRecordV1 },
    errors: ["user.not_found", "user.stale_instance"],
  },
  ({ body, ctx }) => changeUserV1(body, eventActorOf(ctx)),
);

export const USER_V1_ROUTES = [searchUsersV1Route, getUserV1Route, changeUserV1Route];
