import { z } from "zod";
import { portalUserOf, readPortalSession } from "../../auth/portal-session.ts";
import { getConfig } from "../../config/config.ts";
import { defineRoute } from "../../http/define-route.ts";
import { FP_TYPES, ZFpName, type TProviderKey } from "../federation.schemas.ts";
import { continueBindWithSession, startBindForBrowser, startBindForUser } from "./bind-flow.service.ts";
import { externalAuthErrorPage } from "./pages.ts";

const TAGS = ["External providers (v3)"];
const FP = new RegExp(`^(${FP_TYPES.join("|")}):(.+)$`);

const ZFp = z
  .string()
  .max(80)
  .transform((v, ctx): TProviderKey => {
    const m = FP.exec(v);
    const name = m && ZFpName.safeParse(m[2]);
    if (!m || !name?.success) {
      ctx.addIssue({ code: "custom", message: "<fpType>:<fpName>, fpType oidc or oauth2" });
      return z.NEVER;
    }
    return { fpType: m[1] as TProviderKey["fpType"], fpName: name.data };
  })
  .describe("the provider as `<fpType>:<fpName>`, e.g. `oidc:corp`");

export const ZFaBindBody = z
  .strictObject({
    fp: ZFp,
    callback: z.string().min(1).max(2048).describe("absolute http(s) URL on an origin of the application's registered redirect or post-logout URIs (or the service's own)"),
    isPopup: z.boolean().optional().describe("the flow runs in a popup: the outcome is posted to window.opener (postMessage) instead of a redirect"),
  })
  .meta({ id: "FaBindRequest" });
const ZRedirectTo = z.object({ redirectTo: z.string().describe("where to send the user's browser") }).meta({ id: "FaBindRedirect" });
const ZCurrent = z.object({ subjectId: z.literal("current").describe("only `current`: the binding is always the caller's own") });

const OUTCOME =
  "The browser comes back to `callback` with the outcome added to its query: `result=bound&fp=<fpType>:<fpName>&sid=<sid>`, or " +
  "`result=error&fp=…&error=<code>&error_description=<text>` with code fa_bound_to_other_user (the external account is another user's; " +
  "nothing changes), fp_refused (the person cancelled, or the provider's answer failed validation), fp_unavailable or unknown_fp. " +
  "With isPopup the page posts `{type: \"idp.fa_bind\", result, fp, sid | error, error_description}` to window.opener (target origin: the " +
  "callback's) and closes. The request to the provider expires after 10 minutes and is single-use. Events: user.fa_bound (params.via " +
  "\"redirect\") or user.fa_bind_failed. When the provider remembers tokens, they are stored (GET …/fedToken).";

// POST /api/v3/users/current/fa/bind – start binding an external account through its provider
export const faBindV3Route = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/fa/bind",
    summary: "Bind an external account through the provider (redirect flow)",
    description: `User mode only: the account is the token's user. ${OUTCOME}`,
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_ufa_link"], subjectParam: "subjectId" },
    params: ZCurrent,
    body: ZFaBindBody,
    response: { status: 200, description: "The provider's authorization URL", schema: ZRedirectTo },
    errors: ["request.invalid_values", "federation.provider_not_found", "federation.provider_unavailable"],
  },
  ({ ctx, body }) => startBindForUser(ctx, { provider: body.fp, callback: body.callback, isPopup: body.isPopup }),
);

// POST /api/v2/users/current/fa/bind – the older form with HTTP Basic
export const faBindV2Route = defineRoute(
  {
    method: "POST",
    path: "/api/v2/users/{subjectId}/fa/bind",
    summary: "Bind an external account through the provider (HTTP Basic, deprecated)",
    description:
      "HTTP Basic with the application's REST password; the application must hold idp_api_ufa_link among its scopes. Basic names only the " +
      "application, so the binding goes to the person signed in at the service in the browser that opens redirectTo: it is a page of the " +
      "service (`{base_url}/fa/start?req=…`, single-use, 10 minutes) that requires the account portal's session, shows the sign-in when " +
      "there is none, and then forwards to the provider. A user named in the request is not taken: it would let an application bind its " +
      `own external account to anyone. ${OUTCOME} Use POST /api/v3/users/current/fa/bind with a user token instead.`,
    tags: ["External providers (v2)"],
    deprecated: true,
    auth: { kind: "basic", scopes: ["idp_api_ufa_link"] },
    errorShape: "v2",
    params: ZCurrent,
    body: ZFaBindBody,
    response: { status: 200, description: "The service's page that continues in the browser", schema: ZRedirectTo },
    errors: ["request.invalid_values", "federation.provider_not_found"],
  },
  ({ ctx, body }) => startBindForBrowser(ctx, { provider: body.fp, callback: body.callback, isPopup: body.isPopup }),
);

// GET /fa/start?req=… – the v2 binding in the browser: requires the portal's session, then to the provider
export const faStartRoute = defineRoute(
  {
    method: "GET",
    path: "/fa/start",
    summary: "Continue a v2 binding in the browser",
    description:
      "Opened by the browser from the v2 binding's redirectTo. Without the account portal's session it sends the browser to the portal, " +
      "which shows the sign-in and then comes back; with one, the binding is the signed-in person's and the browser goes on to the provider. " +
      "An unknown, used or expired `req` is a page saying so.",
    tags: TAGS,
    auth: { kind: "none" },
    query: z.object({ req: z.string().max(128).describe("the handle from redirectTo") }),
    response: { status: 302, description: "To the provider, or to the portal's sign-in" },
    errors: ["federation.auth_request_not_found", "federation.provider_not_found", "federation.provider_unavailable"],
    renderError: externalAuthErrorPage,
    nextRequestScope: true,
  },
  async ({ query }) => {
    const user = await portalUserOf(await readPortalSession());
    const location = user
      ? (await continueBindWithSession(query.req, user.sub)).redirectTo
      : `${getConfig().issuer}/account/fa/continue?${new URLSearchParams({ req: query.req })}`;
    return new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  },
);

export const BIND_FLOW_ROUTES = [faBindV3Route, faBindV2Route, faStartRoute];
