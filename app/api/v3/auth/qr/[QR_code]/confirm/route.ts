// POST /api/v3/auth/qr/{QR_code}/confirm – sign the waiting browser in as the token's user
import { otherMethods } from "@/server/http/fallback-routes";
import { confirmQrRoute } from "@/server/qr-sign-in/qr-sign-in.routes";

export const POST = confirmQrRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(confirmQrRoute);
