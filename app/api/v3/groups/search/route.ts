// GET /api/v3/groups/search – groups of every profile matching an RQL filter
import { searchGroupsRoute } from "@/server/groups/group-search.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = searchGroupsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(searchGroupsRoute);
