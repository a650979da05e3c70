// GET /api/v3/users/{subjectId}/totps – the account's one-time-password generators
import { otherMethods } from "@/server/http/fallback-routes";
import { listTotpsRoute } from "@/server/otp/otp.routes";

export const GET = listTotpsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(listTotpsRoute);
