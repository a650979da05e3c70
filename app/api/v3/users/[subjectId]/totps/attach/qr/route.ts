// GET|POST /api/v3/users/{subjectId}/totps/attach/qr – QR flow: hand out a TOTP secret, then bind it with its code
import { otherMethods } from "@/server/http/fallback-routes";
import { finishQrRoute, startQrRoute } from "@/server/otp/otp.routes";

export const GET = startQrRoute;
export const POST = finishQrRoute;
export const { PUT, PATCH, DELETE } = otherMethods(startQrRoute, finishQrRoute);
