// GET|PUT|DELETE /api/v2/grps/{id} – read, change or delete a group (deprecated: v3 /api/v3/groups)
import { changeGroupV2Route, deleteGroupV2Route, getGroupV2Route } from "@/server/groups/groups-v2.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getGroupV2Route;
export const PUT = changeGroupV2Route;
export const DELETE = deleteGroupV2Route;
export const { POST, PATCH } = otherMethods(getGroupV2Route, changeGroupV2Route, deleteGroupV2Route);
