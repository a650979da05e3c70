// GET|POST /login/recover/code?flow=… – the code sent to the person's confirmed e-mail or phone
import { recoverCodePage, recoverCodeSubmit } from "@/server/recovery/recovery.routes";

export const GET = recoverCodePage;
export const POST = recoverCodeSubmit;
