// GET /api/v3/users/{subjectId}/grps – the groups of an account
import { userGroupsRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = userGroupsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(userGroupsRoute);
