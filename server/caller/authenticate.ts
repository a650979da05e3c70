import { recordEvent } from "../audit/audit.service.ts";
import { guardClientAuth } from "../clients/client-auth-limits.ts";
import { authenticateRestClient, authenticateTlsClient, getClientForAuth, identifyTlsClient, issuedToThisClient, type TClientAuthResult } from "../clients/clients.service.ts";
import type { TClientAuthRow } from "../clients/clients.repository.ts";
import { derivedOnce } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import { verifyAccessToken, type TAccessClaims } from "../oauth/tokens/access-token.ts";
import type { TAuthenticate, TBasicAuth, TBearerAuth } from "../http/auth-spec.ts";
import { browserIp, forwardedFor, type TActor, type TRequestContext } from "../http/request-context.ts";
import { tlsClientIdentity, type TTlsIdentity } from "../http/tls-identity.ts";
import { CURRENT_SUBJECT } from "../http/current-subject.ts";
import type { THasHeaders } from "../http/exchange.ts";

// Who calls an operation: a bearer token (verified, not revoked, not cut off, of a client that is
// still enabled), a client's REST password over HTTP Basic, or a TLS client certificate. The
// request layer (server/http/) knows only the operation's auth spec; defineRoute hands this to the
// request core, so the layer below the capabilities imports none of them.

// The scheme and the first word after it (RFC 9110 §11.4: `scheme 1*SP token`); leading blanks fail.
const AUTHORIZATION = /^(\S+)\s+(\S+)/;

function credentials(req: THasHeaders, scheme: "Bearer" | "Basic"): string | undefined {
  const header = req.headers.get("authorization");
  if (!header) return undefined;
  // The usual form (the scheme as spelled here, one space, one word) without running the pattern
  // over a token of hundreds of characters on every request.
  if (header.startsWith(scheme) && header.charCodeAt(scheme.length) === 0x20) {
    const value = header.slice(scheme.length + 1);
    if (value.charCodeAt(0) > 0x20 && !value.includes(" ") && !value.includes("\t")) return value;
  }
  const m = AUTHORIZATION.exec(header);
  return m && m[1]!.toLowerCase() === scheme.toLowerCase() ? m[2] : undefined;
}

// Scopes that name path parameters (fed_tkn_{fedPointType}_{fedPointName}) are filled in per
// request; the rest, nearly all, are the spec's own list, used as it is.
const TEMPLATED = /\{(\w+)\}/g;
const hasTemplate = (scopes: readonly string[]) => scopes.some((s) => s.includes("{"));

function acceptedScopes(scopes: readonly string[] | undefined, params: Record<string, string>): readonly string[] {
  if (!scopes) return [];
  return hasTemplate(scopes) ? scopes.map((s) => s.replace(TEMPLATED, (_, name: string) => params[name] ?? "")) : scopes;
}


/**
 * The caller of a bearer token. When the token, its checks and its client answer from process memory,
 * as they do for all but a token's first request, without a Promise: its hooks and turns of the
 * microtask queue would cost more than the check itself.
 */
function bearer(req: THasHeaders, spec: TBearerAuth, params: Record<string, string>): TMaybePromise<TActor> {
  return andThen(verifyAccessToken(bearerToken(req)), (claims) =>
    andThen(getClientForAuth(claims.client_id), (client) => bearerActor(claims, client, spec, params)),
  );
}

function bearerToken(req: THasHeaders): string {
  const token = credentials(req, "Bearer");
  if (!token) throw new AppError("auth.token_missing");
  return token;
}

/** Who the verified token speaks for, once its client is known: enabled, holding an accepted scope, acting on its own user. */
function bearerActor(claims: TAccessClaims, client: TClientAuthRow | null, spec: TBearerAuth, params: Record<string, string>): TRequestContext["actor"] {
  if (!client?.enabled) throw new AppError("auth.token_invalid", { params: { reason: "client_disabled" } });
  if (!issuedToThisClient(client, claims.iat)) throw new AppError("auth.token_invalid", { params: { reason: "client_replaced" } });
  const held = heldScopes(claims);
  const mode = claims.sub_type === "user" ? "user" : "system";
  // A scope may name path parameters (fed_tkn_{fedPointType}_{fedPointName}): it is the one scope of that resource.
  const accepted = acceptedScopes(mode === "user" ? spec.user : spec.system, params);
  if (!accepted.some((s) => held.includes(s))) {
    const all = [...(spec.user ?? []), ...(spec.system ?? [])];
    if (accepted.length === 0) {
      throw new AppError("auth.wrong_mode", { desc: `this operation does not accept ${mode}-mode tokens; scopes: ${all.join(" or ")}` });
    }
    throw new AppError("auth.scope_missing", { desc: `missing scopes: ${accepted.join(" or ")}`, params: { scopes: accepted } });
  }
  if (mode === "system") return { mode, clientId: claims.client_id, scopes: held, jti: claims.jti };
  const subject = spec.subjectParam ? params[spec.subjectParam] : undefined;
  if (subject !== undefined && subject !== claims.sub && subject !== CURRENT_SUBJECT) {
    throw new AppError("auth.wrong_subject", { desc: "wrong_subject: the token was issued to another user" });
  }
  return { mode, userId: claims.sub, clientId: claims.client_id, scopes: held, jti: claims.jti, sessionId: claims.sid, authTime: claims.auth_time, amr: claims.amr };
}

/**
 * A token's scopes as a list, made once per verified token (its claims are remembered with it,
 * verified-tokens.ts) rather than split on every request; frozen, as every request shares it.
 */
const heldScopes = derivedOnce((claims: TAccessClaims): readonly string[] => Object.freeze(claims.scope.split(" ")));

function decodeBasic(value: string): { id: string; secret: string } | undefined {
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon > 0 ? { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : undefined;
}

/**
 * v1/v2 by client certificate (the contract's "Authentication", item 4): a certificate the server
 * verified, whose CN the client lists. The client is the one that lists the CN, or, when the caller
 * names it as the HTTP Basic login with an empty password (`svc-app:`), that one: naming is how a
 * caller picks among several clients sharing a CN. A certificate cannot be guessed, so failures are
 * not counted against the limits of password guessing; they answer exactly as a wrong password.
 */
async function byCertificate(cert: TTlsIdentity, named: string | undefined): Promise<TClientAuthResult & { id?: string }> {
  return named === undefined ? identifyTlsClient(cert.cn) : { ...(await authenticateTlsClient(named, cert.cn)), id: named };
}

async function basic(req: THasHeaders, spec: TBasicAuth): Promise<TActor> {
  const value = credentials(req, "Basic");
  const creds = value ? decodeBasic(value) : undefined;
  const cert = tlsClientIdentity(req);
  const client = cert && (!value || creds?.secret === "") ? await certificateClient(cert, creds?.id) : await passwordClient(req, creds);
  if (spec.scopes && !spec.scopes.some((s) => client.scopes.includes(s))) {
    throw new AppError(spec.v1 ? "auth.basic_not_allowed" : "auth.basic_scope_missing", { desc: `the client application lacks the scope: ${spec.scopes.join(" or ")}`, params: { scopes: spec.scopes } });
  }
  return { mode: "basic", clientId: client.id };
}

async function certificateClient(cert: TTlsIdentity, named: string | undefined) {
  const result = await byCertificate(cert, named);
  if (result.ok) return result.client;
  await recordEvent("client.rest_auth_failed", { clientId: result.id?.slice(0, 128) }, { reason: result.reason, method: "tls", cn: cert.cn.slice(0, 255) });
  throw new AppError("auth.basic_invalid");
}

async function passwordClient(req: THasHeaders, creds: { id: string; secret: string } | undefined) {
  if (!creds) throw new AppError("auth.basic_invalid", { desc: "HTTP Basic credentials of a client application are required" });
  // Guessing REST passwords is limited like guessing OAuth client secrets (client-auth-limits.ts).
  const guard = await guardClientAuth("rest_password", creds.id, browserIp(req));
  const result = await authenticateRestClient(creds.id, creds.secret, guard.judge);
  if (result.ok) return result.client;
  // Every refusal was counted where the password (or a dummy's check) ran, in the guard's judge.
  await recordEvent("client.rest_auth_failed", { clientId: creds.id.slice(0, 128) }, { reason: result.reason });
  throw new AppError("auth.basic_invalid");
}

const ANONYMOUS: TActor = Object.freeze({ mode: "anonymous" });

/**
 * Establishes who is calling; the IP and User-Agent are captured in user mode only, as the contract
 * says. A bearer token whose checks all answer from memory is established without a Promise; callers
 * `await` only what is one.
 */
export const authenticate: TAuthenticate = (req, spec, params, requestId) => {
  const actor = spec.kind === "none" ? ANONYMOUS : spec.kind === "basic" ? basic(req, spec) : bearer(req, spec, params);
  return andThen(actor, (a) => contextOf(req, a, requestId));
};

function contextOf(req: THasHeaders, actor: TActor, requestId: string): TRequestContext {
  if (actor.mode !== "user") return { requestId, actor };
  return { requestId, actor, ip: forwardedFor(req), userAgent: req.headers.get("user-agent")?.slice(0, 512) ?? undefined };
}

