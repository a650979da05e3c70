// POST|DELETE /api/v3/groups/{profile}/{id}/members/{subjectId} – add or remove one member
import { addMemberRoute, removeMemberRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = addMemberRoute;
export const DELETE = removeMemberRoute;
export const { GET, PUT, PATCH } = otherMethods(addMemberRoute, removeMemberRoute);
