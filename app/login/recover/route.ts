// GET|POST /login/recover?flow=… – "Forgot password?": the e-mail or phone a code goes to
import { recoverPage, recoverSubmit } from "@/server/recovery/recovery.routes";

export const GET = recoverPage;
export const POST = recoverSubmit;
