// GET|POST /login/otp?flow=… – the sign-in's second factor: the code of the account's generator
import { otpStepPage, otpStepSubmit } from "@/server/sign-in/login-steps.routes";

export const GET = otpStepPage;
export const POST = otpStepSubmit;
