// GET /api/v3/users/{subjectId}/grps/{profile} – the groups of an account in one profile
import { userProfileGroupsRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = userProfileGroupsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(userProfileGroupsRoute);
