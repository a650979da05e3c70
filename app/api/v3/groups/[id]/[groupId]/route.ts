// POST|PUT|DELETE /api/v3/groups/{profile}/{id} – create, replace the attributes of, or delete a group
// (the folders are [id] and [groupId] because /groups/[id] is GET /groups/{id}; the route maps the names)
import { createGroupRoute, deleteGroupRoute, replaceGroupRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = createGroupRoute;
export const PUT = replaceGroupRoute;
export const DELETE = deleteGroupRoute;
export const { GET, PATCH } = otherMethods(createGroupRoute, replaceGroupRoute, deleteGroupRoute);
