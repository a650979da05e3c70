import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { localeOf } from "../http/locale.ts";
import { eventActorOf } from "../http/request-context.ts";
import { accountOfInstance } from "../users/subject-param.ts";
import { changePassword } from "./password-change.service.ts";
import { ZChangePasswordRequest, ZPasswordStoreRefused, ZPolicyViolation } from "./passwords.schemas.ts";

const DEVICE_HEADER = "idp-ci-ua-id";

export const changePasswordRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{instanceId}/pswd",
    summary: "Change the user's password",
    description:
      "User mode (idp_api_usec_chg): `current` is required; a wrong one answers 401 `invalid_credential` and counts toward the sign-in's brute-force " +
      "limit of the account and of the address in X-Forwarded-For (past it: 429 with Retry-After, whatever the password). System mode " +
      "(idp_api_sys_usec_chg): no `current`; the policy's minimum age and new-characters rule do not apply. Without `password` the service " +
      "generates one (16 characters or the policy's minimum, satisfying its groups); with `sendPswdToAttr` the new password goes by SMS to the confirmed number of " +
      "that phone attribute. A change ends every session, forgets the remembered devices and makes every access and refresh token issued " +
      "before it fail with 401, on every instance; the device named by `IDP-CI-UA-ID` (an id of GET …/apps) keeps its session and tokens. " +
      "The account's instanceId does not change (the password is not an attribute). An account that comes from a directory (LDAP, Active " +
      "Directory) has its password kept there: the change is written into the directory when its settings allow (user mode; system mode " +
      "only where resets are allowed too), its own policy applying as well (a refusal is a policy item naming the directory's reason); " +
      "otherwise 409 `password_in_directory`; 503 while the directory cannot be reached (the attempt is not counted).",
    tags: ["Users (v3)"],
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"] },
    params: z.object({ instanceId: z.string().min(1).max(1024).describe("meta.instanceId of the last read") }),
    paramNames: { subjectId: "instanceId" },
    body: ZChangePasswordRequest,
    response: { status: 204, description: "Password changed; sessions ended, devices forgotten, older tokens invalid" },
    otherResponses: [
      { status: 400, description: "Policy violated (one item per rule, pos `password`), `current` missing in user mode, or bad `sendPswdToAttr` (item `wrong_value`)", schema: ZPolicyViolation },
      { status: 400, description: "Rule id_store as a single item", schema: ZPasswordStoreRefused },
    ],
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", "password.invalid_credential", "password.locked_out", "password.kept_in_directory", "password.directory_unavailable"],
  },
  async ({ ctx, params, body, request }) => {
    const account = await accountOfInstance(ctx, params.instanceId);
    const keepDevice = request.headers.get(DEVICE_HEADER)?.trim().slice(0, 256) || undefined;
    const how = ctx.actor.mode === "user" ? ({ mode: "user", relayedBy: ctx.actor.clientId } as const) : ({ mode: "system", administratorReset: true } as const);
    await changePassword(account, { ...body, keepDevice, locale: localeOf(request) }, { ...how, actor: eventActorOf(ctx) });
  },
);

export const PASSWORD_ROUTES = [changePasswordRoute];
