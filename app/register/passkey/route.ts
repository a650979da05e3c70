// GET|POST /register/passkey?signup=… – the last step of a sign-up with a passkey: the passkey is created and the person signed in
import { signUpPasskeyPage, signUpPasskeySubmit } from "@/server/sign-in/signup-passkey.routes";

export const GET = signUpPasskeyPage;
export const POST = signUpPasskeySubmit;
