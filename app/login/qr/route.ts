// GET|POST /login/qr?flow=… – sign in with a QR code confirmed on another device (works without JavaScript)
import { qrPage, qrStart } from "@/server/sign-in/qr-login.routes";

export const GET = qrPage;
export const POST = qrStart;
