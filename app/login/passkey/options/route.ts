// POST /login/passkey/options?flow=… – the options the passkey button asks the browser with
import { passkeyOptions } from "@/server/sign-in/passkey-login.routes";

export const POST = passkeyOptions;
