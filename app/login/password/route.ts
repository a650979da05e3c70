// GET|POST /login/password?flow=… – the new password an administrator asked for, before signing in
import { passwordStepPage, passwordStepSubmit } from "@/server/sign-in/login-steps.routes";

export const GET = passwordStepPage;
export const POST = passwordStepSubmit;
