import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZRqlQueryParam } from "../rql/rql.schemas.ts";
import { expandsMembers, toGroupV3, ZExpandQuery, ZGroupV3 } from "./api/v3.ts";
import { searchGroups } from "./group-search.service.ts";
import { PAGING_DESC, pageResponse } from "./api/paging.ts";
import { ZProfileName } from "./groups.schemas.ts";

const TAGS = ["Groups (v3)"];
const READ = { kind: "bearer", user: ["idp_api_groups"], system: ["idp_api_sys_groups"] } as const;

const SEARCH_DESC =
  "Groups matching the RQL filter (see the `rql` parameter), in the v3 group shape, members only with `expand=members`. " +
  `${PAGING_DESC} A malformed query, an unknown field or a value of the wrong type is 400 with params.position. ` +
  "A user token (idp_api_groups) finds only groups its user is a member of.";

const ZSearchQuery = ZExpandQuery.extend({ rql: ZRqlQueryParam });

export const searchGroupsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/groups/search",
    summary: "Search groups of every profile",
    description:
      `${SEARCH_DESC} Fields: \`id\`, \`profile\` and every attribute of any profile's schema, with its type; an attribute declared with ` +
      "different types in different profiles is compared as a string (its stored text, so 10 and \"10\" are both \"10\"); search one profile for its own type.",
    tags: TAGS,
    auth: READ,
    query: ZSearchQuery,
    response: { status: 200, description: "The page of groups (header X-Has-More)", schema: z.array(ZGroupV3) },
    errors: ["rql.malformed", "request.invalid_values"],
  },
  async ({ ctx, query }) => pageResponse(await searchGroups(ctx, undefined, query.rql, expandsMembers(query)), (g) => toGroupV3(g, expandsMembers(query))),
);

export const searchProfileGroupsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/groups/{profile}/search",
    summary: "Search the groups of one profile",
    description: `${SEARCH_DESC} Fields: \`id\`, \`profile\` and the attributes of the profile's schema, with their types. 404 for an unknown profile.`,
    tags: TAGS,
    auth: READ,
    params: z.object({ profile: ZProfileName.describe("group profile") }),
    // Next allows one dynamic folder name per level: groups/[id] is this profile.
    paramNames: { id: "profile" },
    query: ZSearchQuery,
    response: { status: 200, description: "The page of groups (header X-Has-More)", schema: z.array(ZGroupV3) },
    errors: ["rql.malformed", "request.invalid_values", "group.profile_not_found"],
  },
  async ({ ctx, params, query }) => pageResponse(await searchGroups(ctx, params.profile, query.rql, expandsMembers(query)), (g) => toGroupV3(g, expandsMembers(query))),
);

export const GROUP_SEARCH_ROUTES = [searchGroupsRoute, searchProfileGroupsRoute];
