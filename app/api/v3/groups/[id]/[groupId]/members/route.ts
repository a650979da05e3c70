// POST /api/v3/groups/{profile}/{id}/members – add several members, all or nothing
import { addMembersRoute } from "@/server/groups/groups.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = addMembersRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(addMembersRoute);
