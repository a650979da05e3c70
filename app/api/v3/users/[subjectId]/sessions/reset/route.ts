// POST /api/v3/users/{instanceId}/sessions/reset – ends the user's sessions and invalidates their tokens
import { otherMethods } from "@/server/http/fallback-routes";
import { resetSessionsRoute } from "@/server/sessions/user-devices.routes";

export const POST = resetSessionsRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(resetSessionsRoute);
