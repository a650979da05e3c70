// POST /login/recover/link/passkey?t=… – the device's answer to an administrator's passkey link: the passkey is created
import { passkeyLinkSubmit } from "@/server/recovery/recovery-link.routes";

export const POST = passkeyLinkSubmit;
