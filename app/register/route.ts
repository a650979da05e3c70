// GET|POST /register?flow=… – self sign-up (IDP_SELF_SIGNUP=on): an HTML form that works without JavaScript
import { registerPage, registerSubmit } from "@/server/sign-in/signup.routes";

export const GET = registerPage;
export const POST = registerSubmit;
