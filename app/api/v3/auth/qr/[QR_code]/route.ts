// GET /api/v3/auth/qr/{QR_code} – what a QR sign-in code asks for (user mode, idp_qr_auth)
import { otherMethods } from "@/server/http/fallback-routes";
import { describeQrRoute } from "@/server/qr-sign-in/qr-sign-in.routes";

export const GET = describeQrRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(describeQrRoute);
