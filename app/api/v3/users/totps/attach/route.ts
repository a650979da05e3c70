// POST /api/v3/users/totps/attach – bind a TOTP generator with given parameters
import { otherMethods } from "@/server/http/fallback-routes";
import { attachTotpRoute } from "@/server/otp/otp.routes";

export const POST = attachTotpRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(attachTotpRoute);
