import { z } from "zod";
import { getCatalog } from "../attributes/attributes.service.ts";
import { getConfig } from "../config/config.ts";
import { type TRouteHandler } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { localeOf } from "../http/locale.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { fromRegistrationV1 } from "./api/v1.ts";
import { confirmRegistration } from "./confirm-registration.service.ts";
import { register } from "./registration.service.ts";
import {
  ZConfirmRegistrationRequest,
  ZRegisterRequestV1,
  ZRegisterRequestV3,
  ZRegistrationResponse,
  ZRegistrationResponseV1,
} from "./registration.schemas.ts";

const TAGS = ["Registration"];
const ERRORS = ["registration.invalid", "registration.password_policy", "registration.conflict", "registration.unknown_dyn_client"] as const;
const LANG = "Messages and `errMsg` are in Russian; `Accept-Language: en` switches both to English.";
const clientOf = (ctx: TRequestContext) => (ctx.actor.mode === "anonymous" ? "" : ctx.actor.clientId);

export const registerV3Route: TRouteHandler = defineRoute(
  {
    method: "PUT",
    path: "/reg/api/v3/users",
    summary: "Register an account",
    description:
      "Contacts with verified=true: the account is created at once and `instructions` is empty. Contacts with verified=false: a code goes to each, " +
      "and `context` + `instructions` (eml-enter-code, mbl-enter-code) come back; depending on IDP_REGISTRATION_MODE the account is created after " +
      "every contact is confirmed (confirm-first, default) or at once with the contacts unconfirmed (create-first: then instanceId and subject come too). " +
      `Errors: 400 invalid data or password policy (field "password"), 409 a unique value is taken (each field named), both with context "". ${LANG}`,
    tags: TAGS,
    auth: { kind: "bearer", system: ["idp_api_sys_users_reg"] },
    errorShape: "registration",
    body: ZRegisterRequestV3,
    response: { status: 200, description: "Registration response", schema: ZRegistrationResponse },
    errors: [...ERRORS],
  },
  ({ ctx, body, request }) =>
    register({
      attrs: body.user.attrs,
      password: body.user.credentials?.password,
      dynClientIds: (body.actions ?? []).map((a) => a.client_id),
      contactFlag: "verified",
      mode: getConfig().registrationMode,
      clientId: clientOf(ctx),
      locale: localeOf(request),
      actor: eventActorOf(ctx),
    }),
);

export const confirmRegistrationRoute: TRouteHandler = defineRoute(
  {
    method: "POST",
    path: "/reg/api/v3/users/{context}",
    summary: "Confirm a registration's contact with its code, or ask for a new code",
    description:
      "Exactly one of email_code, sms_code, email_code_resend, sms_code_resend. A wrong code turns the contact's instruction into *-try-again with " +
      "fewer attemts, then *-no-attempts; an old code into *-expired. A resend sends a new code (the old one stops working, attempts start afresh); " +
      "429 within the resend cooldown (IDP_CODE_RESEND_COOLDOWN). When every contact is confirmed the account exists and `subject` and `instanceId` " +
      `come back with empty instructions. ${LANG}`,
    tags: TAGS,
    auth: { kind: "bearer", system: ["idp_api_sys_users_reg"] },
    errorShape: "registration",
    params: z.object({ context: z.string().min(1).max(64) }),
    body: ZConfirmRegistrationRequest,
    response: { status: 200, description: "Registration response", schema: ZRegistrationResponse },
    errors: ["registration.not_found", "registration.invalid", "registration.conflict", "contact.resend_too_soon"],
  },
  ({ ctx, params, body, request }) => confirmRegistration(params.context, body, localeOf(request), eventActorOf(ctx)),
);

export const registerV1Route: TRouteHandler = defineRoute(
  {
    method: "PUT",
    path: "/reg/api/v1/users",
    summary: "Register an account (v1)",
    description:
      "Deprecated: use PUT /reg/api/v3/users. A flat object of attributes (v1 aliases such as uid, surname, name, personal_mail, personal_mobile, " +
      "or catalog names) and `password`. The account is created at once; contacts are stored unconfirmed and a code is sent to each " +
      `(enter-code instructions; confirm with POST /reg/api/v3/users/{context}). ${LANG} Departure for security: the client needs ` +
      "idp_api_sys_users_reg among its scopes, as PUT /reg/api/v3/users does; otherwise 401.",
    tags: TAGS,
    deprecated: true,
    auth: { kind: "basic", scopes: ["idp_api_sys_users_reg"], v1: true },
    errorShape: "registration",
    body: ZRegisterRequestV1,
    response: { status: 200, description: "subject, instructions and context", schema: ZRegistrationResponseV1 },
    errors: [...ERRORS],
  },
  async ({ ctx, body, request }) => {
    const { attrs, password } = fromRegistrationV1(await getCatalog(), body);
    const r = await register({ attrs, password, dynClientIds: [], contactFlag: "bare", mode: "create-first", clientId: clientOf(ctx), locale: localeOf(request), actor: eventActorOf(ctx) });
    return { subject: r.subject!, instructions: r.instructions, context: r.context };
  },
);

export const REGISTRATION_ROUTES = [registerV3Route, confirmRegistrationRoute, registerV1Route];
