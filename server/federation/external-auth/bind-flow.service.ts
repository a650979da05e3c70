import { getClientForAuth } from "../../clients/clients.service.ts";
import { getConfig } from "../../config/config.ts";
import { hashOpaqueToken, newOpaqueToken } from "../../crypto/opaque-token.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TRequestContext } from "../../http/request-context.ts";
import type { TProviderKey } from "../federation.schemas.ts";
import { requireProvider } from "../providers.service.ts";
import { consumeRequest } from "./callback.service.ts";
import { insertRequest } from "./requests.repository.ts";
import { REQUEST_TTL_MS, startExternalAuth } from "./start.service.ts";

/*
 * Binding an external account through the provider, as applications start it: v3 for the token's
 * user, v2 for whoever holds the service's session in the browser (HTTP Basic names only the application).
 */

export type TBindRequest = { provider: TProviderKey; callback: string; isPopup?: boolean };

const badCallback = (desc: string) => new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc, pos: "callback" }] });

/**
 * The callback must be on an origin of the application's registered redirect or post-logout URIs, or
 * the service's own: the outcome (and the browser) goes there, so any other URL would make the
 * service an open redirector for whoever can call it.
 */
export async function checkCallback(clientId: string, callback: string): Promise<void> {
  const url = URL.canParse(callback) ? new URL(callback) : undefined;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw badCallback("an absolute http(s) URL is required");
  if (url.username || url.password) throw badCallback("a URL without user information is required");
  const client = await getClientForAuth(clientId);
  const registered = [...(client?.redirectUris ?? []), ...(client?.postLogoutRedirectUris ?? [])].flatMap((u) => (URL.canParse(u) ? [new URL(u).origin] : []));
  if (![...registered, new URL(getConfig().issuer).origin].includes(url.origin)) {
    throw badCallback("the callback must be on the origin of one of the application's registered redirect or post-logout URIs");
  }
}

/** POST /api/v3/users/current/fa/bind: the authorization URL of the provider, for the token's user. */
export async function startBindForUser(ctx: TRequestContext, req: TBindRequest): Promise<{ redirectTo: string }> {
  if (ctx.actor.mode !== "user") throw new AppError("auth.wrong_mode");
  await checkCallback(ctx.actor.clientId, req.callback);
  return startExternalAuth({ provider: req.provider, purpose: "bind", userId: ctx.actor.userId, returnTo: req.callback, isPopup: req.isPopup, clientId: ctx.actor.clientId });
}

/**
 * POST /api/v2/users/current/fa/bind: HTTP Basic names the application, not a user, so the binding
 * goes to whoever is signed in at the service in the browser that follows redirectTo (a page that
 * requires the session, see continueBindWithSession). Naming the user in the request would let an
 * application bind its own external account to anyone.
 */
export async function startBindForBrowser(ctx: TRequestContext, req: TBindRequest): Promise<{ redirectTo: string }> {
  if (ctx.actor.mode !== "basic") throw new AppError("auth.basic_invalid");
  await requireProvider(req.provider);
  await checkCallback(ctx.actor.clientId, req.callback);
  const handle = newOpaqueToken();
  await insertRequest({
    stateHash: hashOpaqueToken(handle),
    ...req.provider,
    purpose: "bind",
    userId: null,
    flowId: null,
    clientId: ctx.actor.clientId,
    returnTo: req.callback,
    isPopup: req.isPopup ?? false,
    awaitingSession: true,
    nonce: null,
    codeVerifier: null,
    expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
  });
  return { redirectTo: `${getConfig().issuer}/fa/start?${new URLSearchParams({ req: handle })}` };
}

/** The v2 handle, used once by the browser's signed-in user: the provider's authorization URL. */
export async function continueBindWithSession(handle: string | null, userId: string): Promise<{ redirectTo: string }> {
  const row = await consumeRequest(handle, "handle");
  return startExternalAuth({
    provider: { fpType: row.fpType as TProviderKey["fpType"], fpName: row.fpName },
    purpose: "bind",
    userId,
    returnTo: row.returnTo ?? undefined,
    isPopup: row.isPopup,
    clientId: row.clientId ?? undefined,
  });
}
