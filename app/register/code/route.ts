// GET|POST /register/code?signup=… – code entry for the contacts of a sign-up; the last code signs in
import { codesPage, codesSubmit } from "@/server/sign-in/signup.routes";

export const GET = codesPage;
export const POST = codesSubmit;
