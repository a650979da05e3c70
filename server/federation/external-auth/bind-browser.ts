import { createHmac } from "node:crypto";
import { portalUserOf, readPortalSession } from "../../auth/portal-session.ts";
import { getConfig } from "../../config/config.ts";
import { sameSecret } from "../../crypto/opaque-token.ts";
import { keyFor } from "../../crypto/keys.ts";
import { AppError } from "../../errors/app-error.ts";
import { cookieName, readCookie } from "../../http/cookies.ts";
import type { TPendingExternalAuth } from "./external-auth.types.ts";
import type { TIncoming } from "../../http/exchange.ts";

/*
 * A binding is finished only in the browser of the user it is for (login CSRF / linking fixation):
 * when /fa/start forwards that browser to the provider it gets a cookie tied to the request's state,
 * and the callback wants that cookie and the portal's session of the same user. Whoever hands the
 * provider's URL to someone else binds nothing: the other browser has neither.
 */

// The cookie lives as long as the request and only on the callback's path; its name carries part of
// the state's hash, so two bindings started in two tabs do not overwrite each other's.
const cookieBase = (stateHash: string) => `idp_fa_bind_${stateHash.slice(0, 12)}`;

/** An HMAC of the state's hash under a server key: nothing to store, and no one else can compute it. */
function browserProof(stateHash: string): string {
  return createHmac("sha256", keyFor("federation-secrets")).update(`fa-bind-browser:${stateHash}`).digest("base64url");
}

/** The Set-Cookie that marks this browser as the one sent to the provider for the request. */
export function bindBrowserCookie(stateHash: string, ttlMs: number): string {
  const { issuer, contextPath } = getConfig();
  const parts = [`${cookieName(cookieBase(stateHash))}=${browserProof(stateHash)}`, `Path=${contextPath}/fa/callback`, `Max-Age=${Math.floor(ttlMs / 1000)}`, "HttpOnly", "SameSite=Lax"];
  if (issuer.startsWith("https://")) parts.push("Secure");
  return parts.join("; ");
}

const refused = (pending: TPendingExternalAuth, reason: string) => new AppError("federation.provider_refused", { params: { ...pending.provider, reason } });

/**
 * Before the code is even redeemed: the browser at the callback must be the one /fa/start sent, and be
 * signed in to the portal as the user the binding is for. Else fp_refused and nothing changes.
 */
export async function requireBindingBrowser(req: TIncoming, pending: TPendingExternalAuth): Promise<void> {
  const cookie = readCookie(req, cookieBase(pending.stateHash));
  if (!cookie || !sameSecret(cookie, browserProof(pending.stateHash))) throw refused(pending, "the binding was finished in another browser than the one that started it");
  const user = await portalUserOf(await readPortalSession());
  if (!user || user.sub !== pending.userId) throw refused(pending, "the browser is not signed in to the account portal as the user the binding is for");
}
