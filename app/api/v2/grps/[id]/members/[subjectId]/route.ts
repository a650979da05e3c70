// PUT|DELETE /api/v2/grps/{id}/members/{subjectId} – add or remove a member (deprecated: v3 /api/v3/groups)
import { addMemberV2Route, removeMemberV2Route } from "@/server/groups/groups-v2.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const PUT = addMemberV2Route;
export const DELETE = removeMemberV2Route;
export const { GET, POST, PATCH } = otherMethods(addMemberV2Route, removeMemberV2Route);
