// GET|POST /login/fa/link?flow=… – link an external account bound to nobody by signing in with a password
import { externalLinkPage, externalLinkSubmit } from "@/server/sign-in/external-login.routes";

export const GET = externalLinkPage;
export const POST = externalLinkSubmit;
