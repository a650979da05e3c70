import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { authModesAnswer } from "./auth-modes-read.ts";
import { toAuthModesV3 } from "./auth-modes.service.ts";
import { changeAuthModesOfSubject } from "./auth-modes-api.service.ts";
import { STEP_UP_ERRORS } from "./recent-auth.ts";

const TAGS = ["Authentication modes (v3)"];

const ZAuthModes = z
  .object({
    requiredFactor: z.literal(2).optional().describe("2: a second factor (an OTP code, a backup code or one of the account's passkeys) is asked at sign-in; absent: off"),
    needPasswordChange: z.boolean().describe("true: the next sign-in asks for a new password; cleared by a password change"),
    methodsLocked: z.array(z.string()).describe('["password"]: password sign-in is refused (said only after a right password)'),
  })
  .meta({ id: "AuthModes" });

const ZAuthModesChange = z
  .strictObject({
    requiredFactor: z
      .union([z.literal(0), z.literal(1), z.literal(2), z.null()], { error: "requiredFactor must be 2 (on), or null, 0 or 1 (off)" })
      .optional()
      .describe("2 turns the second factor on (needs a bound TOTP/HOTP generator); null, 0 or 1 turn it off"),
    needPasswordChange: z.literal(true, { error: "needPasswordChange accepts only true" }).optional(),
    methodsLocked: z
      .array(z.literal("password", { error: 'the only lockable method is "password"' }))
      .max(1, 'methodsLocked is [] or ["password"]')
      .optional()
      .describe('["password"] locks password sign-in, [] unlocks it'),
  })
  .meta({ id: "AuthModesChange" });

export const readAuthModesRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/auth",
    summary: "The account's authentication modes",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The modes", schema: ZAuthModes },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => authModesAnswer(ctx, params.subjectId),
);

export const changeAuthModesRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/auth",
    summary: "Change the account's authentication modes",
    description:
      "Fields left out stay as they are. requiredFactor 2 for an account without a bound TOTP/HOTP generator or a passkey: 400 input_error with " +
      "the item has_not_sf_methods (pos requiredFactor), and nothing changes. needPasswordChange can only be set (true); the next " +
      "password change clears it. Turning the second factor off (requiredFactor null, 0 or 1) for an account whose password is " +
      "shorter than the policy's single-factor minimum (allowed only behind the second factor) also sets needPasswordChange: the " +
      "next sign-in asks for a longer password. Each change is a security event (user.auth_modes_changed).",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    body: ZAuthModesChange,
    response: { status: 200, description: "The resulting modes", schema: ZAuthModes },
    errors: ["user.not_found", "auth_modes.no_second_factor_method", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params, body }) => toAuthModesV3(await changeAuthModesOfSubject(ctx, params.subjectId, body ?? {})),
);

export const AUTH_MODES_ROUTES = [readAuthModesRoute, changeAuthModesRoute];
