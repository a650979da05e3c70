import { z } from "zod";
import { AppError } from "../../errors/app-error.ts";
import { defineRoute } from "../../caller/define-route.ts";
import { findProvider } from "../providers.repository.ts";
import { requireBindingBrowser } from "./bind-browser.ts";
import { consumeRequest, toPending } from "./callback.service.ts";
import type { TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";
import { EXTERNAL_AUTH_HANDLERS } from "./handlers.ts";
import { identityFromCode } from "./identity.service.ts";
import { endpointsOf } from "./provider-endpoints.ts";
import { externalAuthErrorPage } from "./pages.ts";

// Providers may add parameters of their own (session_state …): they are ignored, not refused. The
// size limits of code, error and error_description are checked after the state is used (LIMITS), so
// that an application still hears the outcome of its binding; the server's own URL limit bounds them.
const LIMITS = { code: 4096, error: 256, error_description: 1024 } as const;
const ZCallbackQuery = z.looseObject({
  state: z.string().max(512).optional().describe("the state sent with the authorization request"),
  code: z.string().optional().describe(`the authorization code (at most ${LIMITS.code} characters, else fp_refused)`),
  error: z.string().optional().describe(`the provider's refusal (RFC 6749 §4.1.2.1; at most ${LIMITS.error} characters)`),
  error_description: z.string().optional().describe(`at most ${LIMITS.error_description} characters`),
  iss: z.string().max(2048).optional().describe("the provider's issuer (RFC 9207), checked when present"),
});
type TCallbackQuery = z.infer<typeof ZCallbackQuery>;

/** The provider's answer: the external account, or why there is none (an AppError). */
async function identityOf(pending: TPendingExternalAuth, q: TCallbackQuery): Promise<TExternalIdentity> {
  const provider = await findProvider(pending.provider);
  if (!provider) throw new AppError("federation.provider_not_found", { params: { ...pending.provider } });
  const refused = (reason: string) => new AppError("federation.provider_refused", { params: { ...pending.provider, reason } });
  for (const [name, max] of Object.entries(LIMITS)) if ((q[name as keyof typeof LIMITS]?.length ?? 0) > max) throw refused(`${name} is longer than ${max} characters`);
  if (q.error) throw refused(`${q.error}${q.error_description ? `: ${q.error_description}` : ""}`);
  if (!q.code) throw refused("no code in the callback");
  // RFC 9207: an answer naming another issuer is a mix-up attack, whatever its code.
  if (q.iss !== undefined) {
    const { issuer } = await endpointsOf(provider);
    if (issuer !== undefined && q.iss !== issuer) throw refused("iss does not name the provider");
  }
  return identityFromCode(provider, pending, q.code);
}

// GET {ctx}/fa/callback – where an external provider sends the browser back
export const externalAuthCallbackRoute = defineRoute(
  {
    method: "GET",
    path: "/fa/callback",
    summary: "Callback of external providers (redirect URI)",
    description:
      "Register `{base_url}/fa/callback` as the redirect URI at every external provider. The state is single-use and expires after 10 minutes: " +
      "a second use, an unknown or expired state is 400 with a page. The code is exchanged (client_secret_basic, PKCE), the ID token " +
      "validated (signature by the provider's jwks_uri, iss, aud, exp, nonce), userinfo read when the claims are not in it. A binding " +
      "is finished only in the browser that {base_url}/fa/start sent to the provider (a cookie on this path) while it is signed in to the account " +
      "portal as the user the binding is for; in any other browser it is fp_refused before the code is redeemed, and nothing is bound. A binding ends at the application's callback with the outcome in the query (see POST /api/v3/users/current/fa/bind); other failures are pages.",
    tags: ["External providers (v3)"],
    auth: { kind: "none" },
    query: ZCallbackQuery,
    response: { status: 302, description: "To the application's callback with the outcome (a binding), or on with the flow that started it" },
    otherResponses: [{ status: 200, description: "isPopup: a page that posts the outcome to window.opener and closes" }],
    errors: ["federation.auth_request_not_found", "federation.provider_refused", "federation.provider_unavailable"],
    renderError: externalAuthErrorPage,
    // A binding reads the portal's session (next/headers).
    nextRequestScope: true,
  },
  async ({ ctx, query, request }) => {
    const pending = toPending(await consumeRequest(query.state ?? null, "callback"));
    let identity: TExternalIdentity;
    try {
      if (pending.purpose === "bind") await requireBindingBrowser(request, pending);
      identity = await identityOf(pending, query);
    } catch (e) {
      if (e instanceof AppError) return EXTERNAL_AUTH_HANDLERS[pending.purpose].fail(request, pending, e);
      throw e;
    }
    return EXTERNAL_AUTH_HANDLERS[pending.purpose].complete(request, ctx, pending, identity);
  },
);
