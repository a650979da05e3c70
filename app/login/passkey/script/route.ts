// GET /login/passkey/script – the sign-in page's passkey button
import { passkeyScript } from "@/server/sign-in/passkey-login.routes";

export const GET = passkeyScript;
