import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { ZBindBody, ZBindingParams, ZFederatedAccountV3 } from "./api/v3.ts";
import { bindFederatedAccount, listFederatedAccounts, unbindFederatedAccount } from "./bindings.service.ts";
import { BIND_FLOW_ROUTES } from "./external-auth/bind-flow.routes.ts";
import { externalAuthCallbackRoute } from "./external-auth/callback.routes.ts";
import { readFedTokensRoute } from "./external-auth/fed-tokens.routes.ts";

const TAGS = ["External providers (v3)"];
// The contract's two tables disagree on the system scopes: its scope table gives the POST binding to
// idp_api_sys_ufa, the read scope. A client allowed to read bindings must not be able to bind a sid
// of its choice to anyone, so binding takes idp_api_sys_ufa_chg only (documented as a departure).
const READ = { kind: "bearer", user: ["idp_api_ufa"], system: ["idp_api_sys_ufa"], subjectParam: "subjectId" } as const;
const BIND = { kind: "bearer", user: ["idp_api_ufa_chg"], system: ["idp_api_sys_ufa_chg"], subjectParam: "subjectId" } as const;
const UNBIND = { kind: "bearer", user: ["idp_api_ufa_chg"], system: ["idp_api_sys_ufa_chg"], subjectParam: "subjectId" } as const;
const PATH_NOTE = "fpType is `oidc` or `oauth2`; fpName and sid are percent-decoded path segments (encode `/` in a sid as %2F).";

export const listFederatedAccountsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/fa",
    summary: "External accounts bound to the account",
    description: "An empty array when none is bound. userName is present when the provider or the binder gave one.",
    tags: TAGS,
    auth: READ,
    params: ZSubjectParams,
    response: { status: 200, description: "The bindings, oldest first", schema: ZFederatedAccountV3.array() },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => listFederatedAccounts(ctx, params.subjectId),
);

export const bindFederatedAccountRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/fa/{fpType}/{fpName}/{sid}",
    summary: "Bind an external account whose sid is known",
    description:
      `${PATH_NOTE} The body may be omitted. Binding the same account to the same user again is 204 and only updates the name (an absent ` +
      "name keeps the earlier one). One external account binds to one user: when another user holds it, 409 fa_bound_to_other_user " +
      "and nothing changes; of parallel binds of one sid to different users exactly one succeeds. An unknown provider is 404 unknown_fp. " +
      "A security event user.fa_bound records who bound what. System scope: idp_api_sys_ufa_chg (departure for security: not the read scope " +
      "idp_api_sys_ufa, which the scope table also names). " +
      "Departure for security: a user-mode token (idp_api_ufa_chg) is refused with 403 access_denied, because a sid in a path does not prove that the " +
      "caller controls the external account; users bind through POST /api/v3/users/current/fa/bind, which sends them to the provider.",
    tags: TAGS,
    auth: BIND,
    params: ZBindingParams,
    body: ZBindBody.optional(),
    response: { status: 204, description: "Bound" },
    errors: ["user.not_found", "federation.provider_not_found", "federation.sid_bound", "federation.bind_proof_required"],
  },
  async ({ ctx, params, body }) => {
    const { subjectId, ...key } = params;
    await bindFederatedAccount(ctx, subjectId, key, body?.federatedAccountName);
  },
);

export const unbindFederatedAccountRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/fa/{fpType}/{fpName}/{sid}",
    summary: "Remove a binding of an external account",
    description:
      `${PATH_NOTE} 204 when removed; 404 unknown_fa when the account has no such binding (also when another user holds it), ` +
      "404 unknown_fp for an unknown provider. A security event user.fa_unbound records it.",
    tags: TAGS,
    auth: UNBIND,
    params: ZBindingParams,
    response: { status: 204, description: "Removed" },
    errors: ["user.not_found", "federation.provider_not_found", "federation.binding_not_found", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params }) => {
    const { subjectId, ...key } = params;
    await unbindFederatedAccount(ctx, subjectId, key);
  },
);

export const FEDERATION_ROUTES = [listFederatedAccountsRoute, bindFederatedAccountRoute, unbindFederatedAccountRoute, externalAuthCallbackRoute, ...BIND_FLOW_ROUTES, readFedTokensRoute];
