// GET /api/v3/groups/{id} – a group with its members (ids are global)
import { getGroupRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getGroupRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(getGroupRoute);
