import { ACCOUNT_STATE_ROUTES } from "../account-state/account-state.routes.ts";
import { auditRoute } from "../audit/audit.routes.ts";
import { exportEventsRoute } from "../audit/events-export.routes.ts";
import { ACL_ROUTES } from "../consents/acls.routes.ts";
import { dynamicRegistrationRoute } from "../dyn-clients/dyn-clients.routes.ts";
import { liveRoute, readyRoute } from "../health/health.routes.ts";
import { OAUTH_ROUTES } from "../oauth/oauth.routes.ts";
import { PASSWORD_ROUTES } from "../passwords/passwords.routes.ts";
import { PROPS_ROUTES } from "../props/props.routes.ts";
import { QR_SIGN_IN_ROUTES } from "../qr-sign-in/qr-sign-in.routes.ts";
import { REGISTRATION_ROUTES } from "../registration/registration.routes.ts";
import { SECURITY_QUESTION_ROUTES } from "../security-question/security-question.routes.ts";
import { RIGHTS_ROUTES } from "../rights/rights.routes.ts";
import { SLAVE_ACCOUNT_ROUTES } from "../rights/slave-accounts.routes.ts";
import { GROUP_ROUTES } from "../groups/groups.routes.ts";
import { GROUP_V2_ROUTES } from "../groups/groups-v2.routes.ts";
import { GROUP_SEARCH_ROUTES } from "../groups/group-search.routes.ts";
import { USER_V1_ROUTES } from "../users/users-v1.routes.ts";
import { USER_DEVICE_ROUTES } from "../sessions/user-devices.routes.ts";
import { USER_ROUTES } from "../users/users.routes.ts";
import { OTP_ROUTES } from "../otp/otp.routes.ts";
import { PASSKEY_ROUTES } from "../passkeys/passkeys.routes.ts";
import { attachHotpV1Route } from "../otp/otp-v1.routes.ts";
import { AUTH_MODES_ROUTES } from "../auth-modes/auth-modes.routes.ts";
import { FEDERATION_ROUTES } from "../federation/federation.routes.ts";
import { metricsRoute } from "../metrics/metrics.routes.ts";
import { SAML_ROUTES } from "../saml/saml.routes.ts";
import type { TOperation, TRouteHandler } from "../http/define-route.ts";

/**
 * Every operation the service exposes, for the OpenAPI document. A route file under app/ re-exports
 * one of these; test/openapi-coverage.test.ts fails when a route file has no operation here.
 */
export const ROUTES: TRouteHandler[] = [
  ...OAUTH_ROUTES,
  liveRoute,
  readyRoute,
  ...USER_ROUTES,
  ...USER_V1_ROUTES,
  ...REGISTRATION_ROUTES,
  auditRoute,
  ...USER_DEVICE_ROUTES,
  ...ACL_ROUTES,
  ...QR_SIGN_IN_ROUTES,
  exportEventsRoute,
  dynamicRegistrationRoute,
  ...PASSWORD_ROUTES,
  ...SECURITY_QUESTION_ROUTES,
  ...PROPS_ROUTES,
  ...ACCOUNT_STATE_ROUTES,
  ...OTP_ROUTES,
  ...PASSKEY_ROUTES,
  attachHotpV1Route,
  ...AUTH_MODES_ROUTES,
  ...RIGHTS_ROUTES,
  ...SLAVE_ACCOUNT_ROUTES,
  ...GROUP_ROUTES,
  ...GROUP_V2_ROUTES,
  ...GROUP_SEARCH_ROUTES,
  ...FEDERATION_ROUTES,
  ...SAML_ROUTES,
  metricsRoute,
];

export function operations(extra: TRouteHandler[] = []): TOperation[] {
  return [...ROUTES, ...extra].map((r) => r.operation);
}
