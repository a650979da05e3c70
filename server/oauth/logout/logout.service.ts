import { recordEvent, type TEventActor } from "../../audit/audit.service.ts";
import { getClientForAuth, type TClientAuthRow } from "../../clients/clients.service.ts";
import { getConfig } from "../../config/config.ts";
import { AppError } from "../../errors/app-error.ts";
import { endSession, type TSession } from "../../sessions/sessions.service.ts";
import { findActiveAccount } from "../../users/account-snapshots.ts";
import type { TParams } from "../authorize/authorization-request.ts";
import { invalidateSessionTokens } from "../grants/token-invalidation.service.ts";
import { getVerificationKey } from "../keys/signing-keys.service.ts";
import { JwtError, verifyEs256Jwt } from "../tokens/jwt-verify.ts";

/** An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2), checked. */
export type TLogoutRequest = {
  client?: TClientAuthRow;
  /** The user and session the application's ID token names, when it sent one. */
  hint?: { sub: string; sid?: string };
  postLogoutRedirectUri?: string;
  state?: string;
  uiLocales?: string;
};

const invalidHint = () => new AppError("logout.invalid_hint");

/** The ID token the application sent as a hint: ours, for its audience; its expiry does not matter. */
async function verifyHint(token: string): Promise<{ aud: string; sub: string; sid?: string }> {
  let aud: unknown;
  try {
    aud = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")).aud;
  } catch {
    throw invalidHint();
  }
  if (typeof aud !== "string") throw invalidHint();
  try {
    const claims = await verifyEs256Jwt(token, { issuer: getConfig().issuer, audience: aud, typ: "jwt", keyFor: getVerificationKey, ignoreExpiry: true });
    if (typeof claims.sub !== "string") throw invalidHint();
    return { aud, sub: claims.sub, sid: typeof claims.sid === "string" ? claims.sid : undefined };
  } catch (e) {
    if (e instanceof JwtError) throw invalidHint();
    throw e;
  }
}

const param = (p: TParams, name: string, max: number) => {
  const v = p.values.get(name);
  return v && v.length <= max && !p.repeated.has(name) ? v : undefined;
};

/**
 * Checks the request; a post_logout_redirect_uri must be registered exactly for the client that the
 * hint (or client_id) names, or the user is shown an error instead of being sent anywhere.
 */
export async function resolveLogout(p: TParams): Promise<TLogoutRequest> {
  const hintToken = param(p, "id_token_hint", 8192);
  const hint = hintToken ? await verifyHint(hintToken) : undefined;
  const clientId = param(p, "client_id", 128);
  if (hint && clientId && hint.aud !== clientId) throw invalidHint();
  const id = hint?.aud ?? clientId;
  const client = id ? ((await getClientForAuth(id)) ?? undefined) : undefined;
  const postLogoutRedirectUri = p.values.get("post_logout_redirect_uri");
  if (postLogoutRedirectUri !== undefined && !client?.postLogoutRedirectUris.includes(postLogoutRedirectUri)) {
    throw new AppError("logout.redirect_uri_mismatch");
  }
  return {
    client,
    hint: hint && { sub: hint.sub, sid: hint.sid },
    postLogoutRedirectUri,
    state: param(p, "state", 2048),
    uiLocales: param(p, "ui_locales", 200),
  };
}

/**
 * Whether the user must confirm: a logout link alone could be planted on any page, so without an ID
 * token naming this very user the service asks before ending the session.
 */
export function needsConfirmation(request: TLogoutRequest, session: TSession | null): boolean {
  return !!session && request.hint?.sub !== session.userId;
}

/**
 * Ends the browser's session (if it has one) and records it, and cuts off every token issued in that
 * session: access and refresh tokens of its applications, and the console's and portal's own session
 * cookies, which name it (a copy of one stops working at once, on every instance). Without a session
 * in this browser, the sign-in the application's ID token names is cut off all the same: the
 * application says it is over.
 */
export async function signOut(session: TSession | null, request: TLogoutRequest, actor: TEventActor): Promise<void> {
  if (!session) {
    // A deleted or locked account's tokens are cut off already (and a cutoff needs its account).
    if (request.hint?.sid && (await findActiveAccount(request.hint.sub))) await invalidateSessionTokens(request.hint.sub, [request.hint.sid]);
    return;
  }
  await endSession(session.id);
  await invalidateSessionTokens(session.userId, [session.id]);
  await recordEvent("user.signed_out", { ...actor, subject: session.userId, clientId: request.client?.id }, { sid: session.id });
}

/** Where the browser goes afterwards: the application's registered URI with its state, if it gave one. */
export function afterLogout(request: TLogoutRequest): string | undefined {
  if (!request.postLogoutRedirectUri) return undefined;
  const url = new URL(request.postLogoutRedirectUri);
  if (request.state) url.searchParams.set("state", request.state);
  return url.toString();
}
