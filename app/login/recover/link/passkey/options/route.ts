// POST /login/recover/link/passkey/options?t=… – options for creating the passkey of an administrator's link
import { passkeyLinkOptions } from "@/server/recovery/recovery-link.routes";

export const POST = passkeyLinkOptions;
