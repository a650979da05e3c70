// POST /login/fa?flow=… – sign in with an external provider offered on the sign-in page
import { externalStart } from "@/server/sign-in/external-login.routes";

export const POST = externalStart;
