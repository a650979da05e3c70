import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { eventActorOf } from "../http/request-context.ts";
import { readAccount } from "../users/users.service.ts";
import { bindDevice } from "./otp-devices.service.ts";

const ZCode = z.string().min(1).max(32);

export const attachHotpV1Route = defineRoute(
  {
    method: "PUT",
    path: "/rest/usr/{username}/attach/hotp",
    summary: "Bind a hardware generator loaded from a device file (v1)",
    description:
      "Deprecated: use the v3 OTP operations where the generator is not a loaded device. `username` is the account's sub. Binds the " +
      "generator with this serial from a device file an administrator loaded (import section `otpDevices` or the console) when " +
      "otp1, otp2, otp3 are consecutive codes of it: an HOTP generator is searched up to 1000 presses ahead of its counter, whose " +
      "next value becomes the one after otp3; for a TOTP generator otp3 must be the current code. Binding it again to the same " +
      "account resynchronises it. The binding id is hw-<serial>_<sub>. Errors: 400 process_error unknown_otp_device, otp_device_bound " +
      "(another account has it), wrong_otp_code. Departure for security: the client needs idp_api_otp_full_access among its scopes, as " +
      "POST /api/v3/users/hotps/attach does; otherwise 401 access_denied.",
    tags: ["One-time passwords (v1, deprecated)"],
    deprecated: true,
    auth: { kind: "basic", scopes: ["idp_api_otp_full_access"], v1: true },
    params: z.object({ username: z.string().min(1).max(256) }),
    body: z.strictObject({ serial: z.string().min(1).max(64), otp1: ZCode, otp2: ZCode, otp3: ZCode }).meta({ id: "HotpDeviceAttachV1" }),
    response: { status: 204, description: "Bound (or resynchronised)" },
    errors: ["user.not_found", "otp.unknown_device", "otp.device_bound", "otp.wrong_code"],
  },
  async ({ ctx, params, body }) => {
    const account = await readAccount(params.username);
    await bindDevice(account.id, body.serial, [body.otp1, body.otp2, body.otp3], eventActorOf(ctx));
  },
);
