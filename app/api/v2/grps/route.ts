// GET|POST /api/v2/grps – list or create groups (deprecated: v3 /api/v3/groups)
import { createGroupV2Route, listGroupsV2Route } from "@/server/groups/groups-v2.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = listGroupsV2Route;
export const POST = createGroupV2Route;
export const { PUT, PATCH, DELETE } = otherMethods(listGroupsV2Route, createGroupV2Route);
