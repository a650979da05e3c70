// POST /api/v2/users/rights/change – grant and revoke rights of a master account on slave accounts
import { changeSlaveRightsRoute } from "@/server/rights/slave-accounts.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = changeSlaveRightsRoute;
export const { GET, PUT, DELETE, PATCH } = otherMethods(changeSlaveRightsRoute);
