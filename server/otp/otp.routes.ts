import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { z } from "zod";
import type { TErrorCode } from "../errors/codes.ts";
import { defineRoute } from "../caller/define-route.ts";
import { attachHotp, attachTotp, deleteBinding, finishQrBinding, listBindings, startQrBinding } from "./otp-api.service.ts";
import { ZBindingParams, ZHotpAttach, ZOtpBinding, ZQrAttach, ZQrSecret, ZSubjectParams, ZTotpAttach } from "./otp.schemas.ts";

const TAGS = ["One-time passwords (v3)"];
const READ = { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" } as const;
const CHANGE = { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], subjectParam: "subjectId" } as const;
const FULL_ACCESS = "idp_api_otp_full_access";

export const listTotpsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/totps",
    summary: "The account's one-time-password generators",
    description: "TOTP and HOTP generators, oldest first. Never the secret. 404 when the account has none.",
    tags: TAGS,
    auth: READ,
    params: ZSubjectParams,
    response: { status: 200, description: "The bindings", schema: z.array(ZOtpBinding) },
    errors: ["user.not_found", "otp.none_bound"],
  },
  ({ ctx, params }) => listBindings(ctx, params.subjectId),
);

export const startQrRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/totps/attach/qr",
    summary: "QR flow, stage 1: a new TOTP secret as a QR code",
    description:
      "Hands out a new 160-bit secret (SHA1, 6 digits, 30 s, what every authenticator app reads) for this account, as a PNG QR code " +
      "of its otpauth:// URI and as base32 text. Only a secret handed out here for this account can be bound in stage 2, within 10 " +
      "minutes; the last 5 handed out stay valid. The secret is kept sealed until then.",
    tags: TAGS,
    auth: CHANGE,
    params: ZSubjectParams,
    response: { status: 200, description: "The secret", schema: ZQrSecret },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => startQrBinding(ctx, params.subjectId),
);

const QR_FINISH_DESC =
  "Binds a secret of stage 1 when `otpCode` is its current code (±1 step). The binding code cannot then sign in. A wrong code: 400 " +
  "process_error wrong_otp_code, and the secret stays pending for another try. A secret not handed out for this account, expired or " +
  "bound already: 400 process_error unknown_otp_secret. A generator bound before under the same id is replaced (re-enrolment).";

const QR_FINISH = {
  method: "POST",
  tags: TAGS,
  auth: CHANGE,
  body: ZQrAttach,
  response: { status: 204, description: "Bound" },
  errors: ["user.not_found", "otp.wrong_code", "otp.unknown_secret", ...STEP_UP_ERRORS] as TErrorCode[],
} as const;

export const finishQrRoute = defineRoute(
  {
    ...QR_FINISH,
    path: "/api/v3/users/{subjectId}/totps/attach/qr",
    summary: "QR flow, stage 2: bind the secret with its current code (id totp_<subject>)",
    description: QR_FINISH_DESC,
    params: ZSubjectParams,
  },
  async ({ ctx, params, body }) => {
    await finishQrBinding(ctx, params.subjectId, body);
  },
);

export const finishQrWithIdRoute = defineRoute(
  {
    ...QR_FINISH,
    path: "/api/v3/users/{subjectId}/totps/{id}",
    summary: "QR flow, stage 2 with the binding id in the last segment",
    description: `The form of the contract's examples: the id is <prefix>_<subject>; a prefix other than totp binds a further generator. ${QR_FINISH_DESC}`,
    params: ZBindingParams,
  },
  async ({ ctx, params, body }) => {
    await finishQrBinding(ctx, params.subjectId, body, params.id);
  },
);

export const deleteTotpRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/totps/{id}",
    summary: "Remove a generator",
    description:
      "Removes a TOTP or HOTP generator (a hardware one becomes free to bind again). The last generator of an account whose " +
      "requiredFactor is 2 is refused with 400 process_error last_sf_method: turn the second factor off first, or bind another one.",
    tags: TAGS,
    auth: CHANGE,
    params: ZBindingParams,
    response: { status: 204, description: "Removed" },
    errors: ["user.not_found", "otp.not_found", "otp.last_second_factor", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params }) => {
    await deleteBinding(ctx, params.subjectId, params.id);
  },
);

export const attachTotpRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/totps/attach",
    summary: "Bind a TOTP generator with given parameters (id totp_<subject>)",
    description:
      "With `otpCode` (idp_api_usec_chg, idp_api_sys_usec_chg or idp_api_otp_full_access) the code must be the generator's current " +
      "one; without it the token needs idp_api_otp_full_access. User mode binds to the token's user; system mode names the account in " +
      "`subjectId`. Replaces a generator bound before under the same id.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg", FULL_ACCESS], system: ["idp_api_sys_usec_chg", FULL_ACCESS] },
    body: ZTotpAttach,
    response: { status: 204, description: "Bound" },
    errors: ["user.not_found", "otp.wrong_code", "auth.wrong_subject", ...STEP_UP_ERRORS],
  },
  async ({ ctx, body }) => {
    await attachTotp(ctx, body);
  },
);

export const attachHotpRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/hotps/attach",
    summary: "Bind an HOTP generator (id hotp_<subject>)",
    description:
      "`counter` is the counter of the next code the generator will show; sign-in accepts codes up to 10 presses ahead and moves the " +
      "counter past each code accepted. User mode binds to the token's user; system mode names the account in `subjectId`.",
    tags: TAGS,
    auth: { kind: "bearer", user: [FULL_ACCESS], system: [FULL_ACCESS] },
    body: ZHotpAttach,
    response: { status: 204, description: "Bound" },
    errors: ["user.not_found", "auth.wrong_subject", ...STEP_UP_ERRORS],
  },
  async ({ ctx, body }) => {
    await attachHotp(ctx, body);
  },
);

export const OTP_ROUTES = [listTotpsRoute, startQrRoute, finishQrRoute, finishQrWithIdRoute, deleteTotpRoute, attachTotpRoute, attachHotpRoute];
