import { recordEvent } from "../../audit/audit.service.ts";
import { getClientForAuth } from "../../clients/clients.service.ts";
import { unsealFor } from "../../crypto/keys.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TRequestContext } from "../../http/request-context.ts";
import { cachedAccountOfSubject } from "../../users/subject-param.ts";
import type { TProviderKey } from "../federation.schemas.ts";
import type { TProviderRow } from "../providers.repository.ts";
import { DISCOVERY_TIMEOUT_MS } from "../discovery.service.ts";
import { providerLabel, requireProvider } from "../providers.service.ts";
import { clientAuthOf, tokensOf } from "./identity.service.ts";
import { endpointsOf } from "./provider-endpoints.ts";
import { PROVIDER_TIMEOUT_MS, tokenRequest } from "./provider-http.ts";
import { sealToken } from "./remember-tokens.ts";
import { deleteToken, findToken, findTokensOf, releaseRefreshLease, saveRefreshed, takeRefreshLease, type TTokenRow } from "./tokens.repository.ts";

/*
 * GET …/fedToken: the stored tokens of a user's accounts at one provider, refreshed first when their
 * remaining life is below the provider's minimum. A stale token is refreshed once however many ask:
 * in a process, callers share one promise; across processes, a lease on the row (refreshing_until)
 * lets one refresh while the others wait for its result. The lease is a column, not a row lock held
 * through the call to the provider, so no database connection waits on a remote server.
 */

/**
 * How long a refresh may hold its lease: discovery and the token request may each take their whole
 * timeout, plus a margin. A process that died holding it is overtaken after that.
 */
export const LEASE_MS = DISCOVERY_TIMEOUT_MS + PROVIDER_TIMEOUT_MS + 5_000;
const WAIT_STEP_MS = 100;

/** The contract's {token, expiresOn}: expiresOn is always there, null when the expiry is unknown. */
export type TFedToken = { token: string; expiresOn: number | null };
type TKey = { fpType: string; fpName: string; sid: string };
/** Whose token is refreshed, and the application that asked: the audit trail's actor when the provider refuses. */
type TAsker = { userId: string; clientId: string };

const unsealToken = (sealed: string) => unsealFor("federation-tokens", sealed);
const keyOf = (row: TTokenRow): TKey => ({ fpType: row.fpType, fpName: row.fpName, sid: row.sid });

/** fed_tkn_any or fed_tkn_{type}_{name}, held by the token and still allowed to the application; that application's id. */
async function requireTokenScope(ctx: TRequestContext, provider: TProviderKey): Promise<string> {
  if (ctx.actor.mode !== "system") throw new AppError("auth.wrong_mode");
  const named = [`fed_tkn_${provider.fpType}_${provider.fpName}`, "fed_tkn_any"];
  const allowed = (await getClientForAuth(ctx.actor.clientId))?.scopes ?? [];
  const { scopes } = ctx.actor;
  if (!named.some((s) => scopes.includes(s) && allowed.includes(s))) {
    throw new AppError("auth.scope_missing", { desc: `missing scopes: ${named.join(" or ")}`, params: { scopes: named } });
  }
  return ctx.actor.clientId;
}

/** Stale: its remaining life is below the minimum. A token without a known expiry never is. */
export function isStale(expiresAt: Date | null, minLifeS: number, now = Date.now()): boolean {
  return expiresAt !== null && expiresAt.getTime() - now < minLifeS * 1000;
}

/**
 * Refreshes under the lease. Another process holding it: its result once the row changes (null when it
 * was dropped), or the lease itself when that process let it go without a result (its provider call
 * failed), so a waiter does not sit out the whole lease.
 */
async function refreshUnderLease(provider: TProviderRow, row: TTokenRow & { refreshToken: string }, asker: TAsker): Promise<TTokenRow | null> {
  const key = keyOf(row);
  for (let waited = 0; ; waited += WAIT_STEP_MS) {
    if (await takeRefreshLease(key, row.accessToken, LEASE_MS)) return refreshHoldingLease(provider, row, asker);
    if (waited >= LEASE_MS) throw new AppError("federation.provider_unavailable", { params: { fpType: key.fpType, fpName: key.fpName, reason: "a refresh elsewhere did not finish" } });
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    const now = await findToken(key);
    if (!now || now.accessToken !== row.accessToken) return now;
  }
}

/**
 * null when the provider refused (invalid_grant): the stored token is dropped, if it is still the one
 * refreshed, and the user's audit trail says so (an application that finds no token can then tell the
 * user why they have to sign in at the provider again).
 */
async function refreshHoldingLease(provider: TProviderRow, row: TTokenRow & { refreshToken: string }, asker: TAsker): Promise<TTokenRow | null> {
  const key = keyOf(row);
  try {
    const pk = { fpType: provider.fpType, fpName: provider.fpName } as TProviderKey;
    const { tokenEndpoint } = await endpointsOf(provider);
    const answer = await tokenRequest(pk, tokenEndpoint, { grant_type: "refresh_token", refresh_token: unsealToken(row.refreshToken) }, clientAuthOf(provider));
    if (!answer.ok && answer.error === "invalid_grant") {
      // A new sign-in may have stored fresh tokens meanwhile: those are the user's now, not refused.
      if (await deleteToken(key, row.accessToken)) {
        const params = { provider: providerLabel(provider), sid: key.sid, reason: "the provider refused the refresh token" };
        await recordEvent("user.fa_token_dropped", { subject: asker.userId, clientId: asker.clientId }, params);
        return null;
      }
      return findToken(key);
    }
    const tokens = answer.ok ? tokensOf(answer.body) : undefined;
    if (!tokens) throw new AppError("federation.provider_unavailable", { params: { ...pk, reason: answer.ok ? "no access_token in the refresh answer" : `refresh refused: ${answer.error}` } });
    const next = { ...key, accessToken: sealToken(tokens.accessToken), refreshToken: tokens.refreshToken ? sealToken(tokens.refreshToken) : null, expiresAt: tokens.expiresAt ?? null };
    await saveRefreshed(next);
    return { ...next, refreshToken: next.refreshToken ?? row.refreshToken };
  } catch (e) {
    await releaseRefreshLease(key);
    throw e;
  }
}

const inFlight = new Map<string, Promise<TTokenRow | null>>();

function refreshOnce(provider: TProviderRow, row: TTokenRow & { refreshToken: string }, asker: TAsker): Promise<TTokenRow | null> {
  const id = JSON.stringify(keyOf(row));
  let pending = inFlight.get(id);
  if (!pending) {
    pending = refreshUnderLease(provider, row, asker).finally(() => inFlight.delete(id));
    inFlight.set(id, pending);
  }
  return pending;
}

/** The token to hand out: refreshed when stale and refreshable; an expired one without refresh is not handed out. */
async function currentToken(provider: TProviderRow, row: TTokenRow, asker: TAsker): Promise<TTokenRow | null> {
  if (!isStale(row.expiresAt, provider.minTokenLifeS)) return row;
  if (row.refreshToken) return refreshOnce(provider, { ...row, refreshToken: row.refreshToken }, asker);
  return row.expiresAt !== null && row.expiresAt.getTime() > Date.now() ? row : null;
}

/** GET /api/v3/users/{subjectId}/fedToken/{fedPointType}/{fedPointName} */
export async function readFedTokens(ctx: TRequestContext, subjectId: string, key: TProviderKey): Promise<Record<string, TFedToken>> {
  const clientId = await requireTokenScope(ctx, key);
  const account = await cachedAccountOfSubject(ctx, subjectId);
  const provider = await requireProvider(key);
  if (!provider.rememberTokens) throw new AppError("federation.token_not_found", { desc: "this external provider does not remember tokens" });
  const rows = await findTokensOf(account.id, key);
  if (!rows.length) throw new AppError("federation.token_not_found");
  const asker = { userId: account.id, clientId };
  const current = await Promise.all(rows.map((r) => currentToken(provider, r, asker)));
  const out: Record<string, TFedToken> = {};
  for (const row of current) {
    if (row) out[row.sid] = { token: unsealToken(row.accessToken), expiresOn: row.expiresAt ? Math.floor(row.expiresAt.getTime() / 1000) : null };
  }
  if (Object.keys(out).length) return out;
  throw new AppError(current.some((r, i) => r === null && rows[i]!.refreshToken) ? "federation.token_refresh_refused" : "federation.token_not_found");
}
