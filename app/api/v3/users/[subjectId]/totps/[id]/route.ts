// POST|DELETE /api/v3/users/{subjectId}/totps/{id} – QR flow stage 2 under a binding id; remove a generator
import { otherMethods } from "@/server/http/fallback-routes";
import { deleteTotpRoute, finishQrWithIdRoute } from "@/server/otp/otp.routes";

export const POST = finishQrWithIdRoute;
export const DELETE = deleteTotpRoute;
export const { GET, PUT, PATCH } = otherMethods(finishQrWithIdRoute, deleteTotpRoute);
