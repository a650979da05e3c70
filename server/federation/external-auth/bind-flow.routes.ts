import { STEP_UP_ERRORS } from "../../auth-modes/recent-auth.ts";
import { z } from "zod";
import { defineRoute } from "../../caller/define-route.ts";
import { FP_TYPES, ZFpName, type TProviderKey } from "../federation.schemas.ts";
import { startBindForBrowser, startBindForUser } from "./bind-flow.service.ts";
import { faStartConfirmRoute, faStartRoute } from "./bind-start.routes.ts";

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
const ZRedirectTo = z
  .object({ redirectTo: z.string().describe("the service's page `{base_url}/fa/start?req=…` (single-use, 10 minutes): open it in the user's browser") }).meta({ id: "FaBindRedirect" });
const ZCurrent = z.object({ subjectId: z.literal("current").describe("only `current`: the binding is always the caller's own") });

const BROWSER =
  "redirectTo is a page of the service, never the provider's URL: the binding happens only in a browser signed in to the account portal as the " +
  "user (without the portal's session the page shows its sign-in first; signed in as someone else, it refuses). The page names the application " +
  "and the provider and binds only when the person presses Link; then it sends the browser to the provider, marked with a cookie for the " +
  "callback, so a redirectTo or provider URL opened in any other browser binds nothing (fp_refused). ";
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
    description: `User mode only: the account is the token's user. ${BROWSER}${OUTCOME}`,
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_ufa_link"], subjectParam: "subjectId" },
    params: ZCurrent,
    body: ZFaBindBody,
    response: { status: 200, description: "The service's page that continues in the user's browser", schema: ZRedirectTo },
    errors: ["request.invalid_values", "federation.provider_not_found", "federation.provider_unavailable", ...STEP_UP_ERRORS],
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
      "application, so the binding goes to the person signed in to the account portal in the browser that opens redirectTo. A user named in " +
      `the request is not taken: it would let an application bind its own external account to anyone. ${BROWSER}${OUTCOME} Use POST /api/v3/users/current/fa/bind with a user token instead.`,
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

export const BIND_FLOW_ROUTES = [faBindV3Route, faBindV2Route, faStartRoute, faStartConfirmRoute];
