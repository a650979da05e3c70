// POST /api/v3/users/hotps/attach – bind an HOTP generator
import { otherMethods } from "@/server/http/fallback-routes";
import { attachHotpRoute } from "@/server/otp/otp.routes";

export const POST = attachHotpRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(attachHotpRoute);
