import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { localeOf } from "../http/locale.ts";
import { ZSlaveRightsChange, ZV2Errors } from "./rights.schemas.ts";
import { changeSlaveRights, setSlavePassword } from "./slave-accounts.service.ts";
import { v2Body } from "../http/v2-errors.ts";

const TAGS = ["Master and subordinate accounts (v2)"];

export const changeSlaveRightsRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v2/users/rights/change",
    summary: "Grant and revoke rights of a master account on subordinate accounts",
    description:
      "Both blocks are required (an unused one is `[]`), at most 50 items each. With a user token (idp_user_rights or idp_api_user_rights) " +
      "every `subject` must be the token's user, else 403 access_denied; a system token (idp_rm_rights) may only revoke, for any users " +
      "(a non-empty `update` is 403 access_denied). The deletes run first, then the updates, all in one transaction: any bad item " +
      "(empty or unknown subject, object or right, bad tag) is 400 validation_error with params.field naming it, and nothing changes. " +
      "A security event rights.granted or rights.revoked per item records who, what, the tags and the client. 204 on success.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_user_rights", "idp_api_user_rights"], system: ["idp_rm_rights"] },
    errorShape: "v2",
    jsonBody: ZSlaveRightsChange,
    response: { status: 204, description: "Changed" },
    otherResponses: [
      { status: 400, description: "validation_error: bad body, or an unknown user or right (params.field, params.reason)", schema: ZV2Errors },
      { status: 403, description: "access_denied", schema: ZV2Errors },
    ],
    errors: ["rights.access_denied", "request.invalid_values", "request.too_large"],
  },
  async ({ ctx, request }) => {
    await changeSlaveRights(ctx, await v2Body(ZSlaveRightsChange, request));
  },
);

const ZSlavePassword = z
  .strictObject({ value: z.string().min(1).max(4096).describe("the subordinate account's new password; must satisfy the password policy") })
  .meta({ id: "SlavePassword", examples: [{ value: "new battery staple 42" }] });

export const setSlavePasswordRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v2/users/{subject}/password",
    summary: "Set a subordinate account's password",
    description:
      "The master's user token (idp_change_password) sets the password of the account `subject` when the master holds the right " +
      "change_password on it (a revoked right stops this at once); otherwise, or when no such account exists, 403 access_denied. The " +
      "password policy applies as to a password set by a system (no current password, no minimum age); a violation is 400 with one " +
      "item per rule (code password_policy_violated, params.rule, params.field `value`). Like any password change it ends the subordinate account's " +
      "sessions, forgets its remembered devices and makes its older access and refresh tokens fail. 200 with the subordinate account's id.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_change_password"] },
    errorShape: "v2",
    params: z.object({ subject: z.string().min(1).max(256).describe("the subordinate account's id") }),
    paramNames: { subjectId: "subject" },
    jsonBody: ZSlavePassword,
    response: { status: 200, description: "Password set", schema: z.object({ subject: z.string().describe("the subordinate account's id") }) },
    otherResponses: [
      { status: 400, description: "validation_error (bad body) or password_policy_violated (one item per rule)", schema: ZV2Errors },
      { status: 403, description: "access_denied", schema: ZV2Errors },
    ],
    errors: ["rights.access_denied", "request.invalid_values", "request.too_large", "password.policy_violated", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params, request }) => {
    const body = await v2Body(ZSlavePassword, request);
    return setSlavePassword(ctx, params.subject, body.value, localeOf(request));
  },
);

export const SLAVE_ACCOUNT_ROUTES = [changeSlaveRightsRoute, setSlavePasswordRoute];
