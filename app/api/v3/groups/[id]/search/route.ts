// GET /api/v3/groups/{profile}/search – groups of one profile matching an RQL filter
// (the folder is [id] because /groups/[id] is GET /groups/{id}; the route maps the name to profile)
import { searchProfileGroupsRoute } from "@/server/groups/group-search.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = searchProfileGroupsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(searchProfileGroupsRoute);
