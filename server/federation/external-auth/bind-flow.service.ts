import { requireRecentAuth } from "../../auth-modes/recent-auth.ts";
import { getClientForAuth } from "../../clients/clients.service.ts";
import { getConfig } from "../../config/config.ts";
import { hashOpaqueToken, newOpaqueToken } from "../../crypto/opaque-token.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TRequestContext } from "../../http/request-context.ts";
import type { TProviderKey } from "../federation.schemas.ts";
import { AUTH_APPS } from "../../auth/apps.ts";
import { providerLabel, requireProvider } from "../providers.service.ts";
import { bindBrowserCookie } from "./bind-browser.ts";
import { consumeRequest } from "./callback.service.ts";
import { findHandle, insertRequest } from "./requests.repository.ts";
import { REQUEST_TTL_MS, startExternalAuth } from "./start.service.ts";

/*
 * Binding an external account through the provider, as applications (and the portal) start it: v3 for
 * the token's user, v2 for whoever holds the portal's session in the browser (HTTP Basic names only
 * the application). All go through {ctx}/fa/start in the user's own browser.
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

/** POST /api/v3/users/current/fa/bind: the service's page that binds to the token's user, in that user's browser. */
export async function startBindForUser(ctx: TRequestContext, req: TBindRequest): Promise<{ redirectTo: string }> {
  if (ctx.actor.mode !== "user") throw new AppError("auth.wrong_mode");
  await requireRecentAuth(ctx);
  await checkCallback(ctx.actor.clientId, req.callback);
  return handOutBind({ provider: req.provider, returnTo: req.callback, isPopup: req.isPopup, clientId: ctx.actor.clientId, userId: ctx.actor.userId });
}

/**
 * POST /api/v2/users/current/fa/bind: HTTP Basic names the application, not a user, so the binding
 * goes to whoever is signed in at the service in the browser that follows redirectTo. Naming the user
 * in the request would let an application bind its own external account to anyone.
 */
export async function startBindForBrowser(ctx: TRequestContext, req: TBindRequest): Promise<{ redirectTo: string }> {
  if (ctx.actor.mode !== "basic") throw new AppError("auth.basic_invalid");
  await checkCallback(ctx.actor.clientId, req.callback);
  return handOutBind({ provider: req.provider, returnTo: req.callback, isPopup: req.isPopup, clientId: ctx.actor.clientId, userId: null });
}

export type THandOutBind = { provider: TProviderKey; returnTo: string; isPopup?: boolean; clientId: string; userId: string | null };

/**
 * Every binding starts as a single-use handle to {ctx}/fa/start, never as the provider's URL: that
 * page makes sure the browser is signed in to the portal as the user (userId; null for v2: whoever
 * is), asks for confirmation when an application started it, and marks the browser (bind-browser.ts).
 */
export async function handOutBind(input: THandOutBind): Promise<{ redirectTo: string }> {
  await requireProvider(input.provider);
  const handle = newOpaqueToken();
  await insertRequest({
    stateHash: hashOpaqueToken(handle),
    ...input.provider,
    purpose: "bind",
    userId: input.userId,
    flowId: null,
    clientId: input.clientId,
    returnTo: input.returnTo,
    isPopup: input.isPopup ?? false,
    awaitingSession: true,
    nonce: null,
    codeVerifier: null,
    expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
  });
  return { redirectTo: `${getConfig().issuer}/fa/start?${new URLSearchParams({ req: handle })}` };
}

export type TBindGate =
  | { kind: "other_user" }
  /** An application asked: the person confirms, naming it and the provider, before anything happens. */
  | { kind: "confirm"; application: string; provider: string }
  | { kind: "go" };

/** What /fa/start does with a handle for the signed-in user; unknown, used or expired: 400 unknown_fa_request. */
export async function gateBind(handle: string, userId: string, now = new Date()): Promise<TBindGate> {
  const row = /^[A-Za-z0-9_-]{16,128}$/.test(handle) ? await findHandle(hashOpaqueToken(handle)) : null;
  if (!row || row.expiresAt <= now) throw new AppError("federation.auth_request_not_found");
  if (row.userId !== null && row.userId !== userId) return { kind: "other_user" };
  if (row.clientId === null || row.clientId === AUTH_APPS.portal.clientId) return { kind: "go" };
  const client = await getClientForAuth(row.clientId);
  return { kind: "confirm", application: client?.name || row.clientId, provider: providerLabel({ fpType: row.fpType as TProviderKey["fpType"], fpName: row.fpName }) };
}

/** The handle, used once by the browser's signed-in user: the provider's URL and the cookie that marks this browser. */
export async function forwardBind(handle: string, userId: string): Promise<{ redirectTo: string; cookie: string }> {
  const row = await consumeRequest(handle, "handle");
  if (row.userId !== null && row.userId !== userId) throw new AppError("federation.auth_request_not_found");
  const { redirectTo, stateHash } = await startExternalAuth({
    provider: { fpType: row.fpType as TProviderKey["fpType"], fpName: row.fpName },
    purpose: "bind",
    userId,
    returnTo: row.returnTo ?? undefined,
    isPopup: row.isPopup,
    clientId: row.clientId ?? undefined,
  });
  return { redirectTo, cookie: bindBrowserCookie(stateHash, REQUEST_TTL_MS) };
}
