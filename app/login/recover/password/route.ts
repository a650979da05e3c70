// GET|POST /login/recover/password?flow=… – the new password at the end of a recovery
import { recoverPasswordPage, recoverPasswordSubmit } from "@/server/recovery/recovery.routes";

export const GET = recoverPasswordPage;
export const POST = recoverPasswordSubmit;
