// GET /login/qr/status?flow=… – where the waiting page's QR sign-in stands, for its script
import { qrStatus } from "@/server/sign-in/qr-login.routes";

export const GET = qrStatus;
