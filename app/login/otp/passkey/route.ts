// POST /login/otp/passkey?flow=… – the second factor with one of the account's passkeys
import { passkeyFactorSubmit } from "@/server/sign-in/login-steps.routes";

export const POST = passkeyFactorSubmit;
