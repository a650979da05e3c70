// GET|POST /login?flow=… – the sign-in page (an HTML form that works without JavaScript)
import { loginPage, loginSubmit } from "@/server/sign-in/login.routes";

export const GET = loginPage;
export const POST = loginSubmit;
