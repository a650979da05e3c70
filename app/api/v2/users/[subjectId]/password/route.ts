// POST /api/v2/users/{subject}/password – a master sets a slave account's password (right change_password)
import { setSlavePasswordRoute } from "@/server/rights/slave-accounts.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = setSlavePasswordRoute;
export const { GET, PUT, DELETE, PATCH } = otherMethods(setSlavePasswordRoute);
