// POST /api/v3/auth/qr/{QR_code}/refuse – refuse the sign-in a QR code asks for
import { otherMethods } from "@/server/http/fallback-routes";
import { refuseQrRoute } from "@/server/qr-sign-in/qr-sign-in.routes";

export const POST = refuseQrRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(refuseQrRoute);
