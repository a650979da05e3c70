// POST /login/passkey?flow=… – sign in with a passkey's answer
import { passkeySubmit } from "@/server/sign-in/passkey-login.routes";

export const POST = passkeySubmit;
