// PUT|DELETE /api/v3/rights – grant or revoke rights (tags) of a subject on an object
import { grantRightsRoute, revokeRightsRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const PUT = grantRightsRoute;
export const DELETE = revokeRightsRoute;
export const { GET, POST, PATCH } = otherMethods(grantRightsRoute, revokeRightsRoute);
