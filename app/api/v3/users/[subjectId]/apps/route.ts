// GET /api/v3/users/{subjectId}/apps – the devices and browsers the user signed in from
import { otherMethods } from "@/server/http/fallback-routes";
import { listAppsRoute } from "@/server/sessions/user-devices.routes";

export const GET = listAppsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(listAppsRoute);
