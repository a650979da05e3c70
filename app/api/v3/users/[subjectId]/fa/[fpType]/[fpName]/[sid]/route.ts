// POST|DELETE /api/v3/users/{subjectId}/fa/{fpType}/{fpName}/{sid} – bind or unbind an external account
import { otherMethods } from "@/server/http/fallback-routes";
import { bindFederatedAccountRoute, unbindFederatedAccountRoute } from "@/server/federation/federation.routes";

export const POST = bindFederatedAccountRoute;
export const DELETE = unbindFederatedAccountRoute;
export const { GET, PUT, PATCH } = otherMethods(bindFederatedAccountRoute, unbindFederatedAccountRoute);
