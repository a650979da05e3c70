// POST /login/otp/passkey/options?flow=… – options listing the account's passkeys, for its second factor
import { passkeyFactorOptionsRoute } from "@/server/sign-in/login-steps.routes";

export const POST = passkeyFactorOptionsRoute;
