// GET|POST /login/recover/link?t=… – the link of an administrator's recovery message: a new password, once
import { recoveryLinkPage, recoveryLinkSubmit } from "@/server/recovery/recovery-link.routes";

export const GET = recoveryLinkPage;
export const POST = recoveryLinkSubmit;
