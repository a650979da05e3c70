// POST /register/passkey/options?signup=… – options for creating the passkey of a sign-up
import { signUpPasskeyOptionsRoute } from "@/server/sign-in/signup-passkey.routes";

export const POST = signUpPasskeyOptionsRoute;
