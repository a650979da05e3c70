import { AppError } from "../../errors/app-error.ts";
import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { ZScopeName, type TGrantType } from "../../clients/clients.schemas.ts";
import { redeemAuthorizationCode } from "../grants/authorization-codes.service.ts";
import { refreshGrant } from "../grants/refresh-tokens.service.ts";
import type { TTokenSet } from "../grants/user-tokens.ts";
import { countIssuedToken } from "../../metrics/registry.ts";
import { issueAccessToken } from "../tokens/access-token.ts";
import { authenticateTokenClient } from "./client-auth.ts";
import { readForm, required } from "../../http/form.ts";
import type { TIncoming } from "../../http/exchange.ts";

/** State handed from step to step; each step fills in what the next ones need. */
export type TTokenRequest = {
  req: TIncoming;
  form: Map<string, string>;
  client?: TClientAuthRow;
  grantType?: TGrantType;
  scopes?: string[];
  response?: TTokenSet;
};

export type TTokenStep = (t: TTokenRequest) => Promise<void> | void;

export const SUPPORTED_GRANT_TYPES = ["client_credentials", "authorization_code", "refresh_token"] as const satisfies readonly TGrantType[];

export const parseForm: TTokenStep = async (t) => {
  t.form = await readForm(t.req);
};

export const authenticate: TTokenStep = async (t) => {
  t.client = (await authenticateTokenClient(t.req, t.form)).client;
};

export const checkGrantType: TTokenStep = (t) => {
  const grantType = required(t.form, "grant_type");
  if (!(SUPPORTED_GRANT_TYPES as readonly string[]).includes(grantType)) {
    throw new AppError("oauth.unsupported_grant_type", { desc: `grant_type ${grantType.slice(0, 64)} is not supported` });
  }
  if (!t.client!.grantTypes.includes(grantType as TGrantType)) {
    throw new AppError("oauth.unauthorized_client", { desc: `the client may not use the ${grantType} grant` });
  }
  // A client with no system scopes has nothing to obtain for itself: it may not use this grant.
  if (grantType === "client_credentials" && t.client!.scopes.length === 0) {
    throw new AppError("oauth.unauthorized_client", { desc: "the client may not use the client_credentials grant" });
  }
  t.grantType = grantType as TGrantType;
};

/** Every requested scope must be one the client may obtain (RFC 6749 §3.3: space-delimited). */
export const checkScope: TTokenStep = (t) => {
  const raw = t.form.get("scope");
  if (raw === undefined || raw.trim() === "") throw new AppError("oauth.invalid_scope", { desc: "scope is required" });
  const requested = [...new Set(raw.split(" ").filter(Boolean))];
  const malformed = requested.find((s) => !ZScopeName.safeParse(s).success);
  if (malformed !== undefined) throw new AppError("oauth.invalid_scope", { desc: "scope contains an invalid character" });
  const refused = requested.filter((s) => !t.client!.scopes.includes(s));
  if (refused.length) throw new AppError("oauth.invalid_scope", { desc: `scope not allowed for this client: ${refused.join(" ")}` });
  t.scopes = requested;
};

export const issueClientToken: TTokenStep = async (t) => {
  const client = t.client!;
  const token = await issueAccessToken({ clientId: client.id, sub: client.id, subType: "client", scopes: t.scopes!, ttl: client.accessTokenTtl });
  t.response = { access_token: token.token, expires_in: token.expiresIn, scope: token.scope, token_type: "Bearer" };
};

/** RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5). */
export const redeemCode: TTokenStep = async (t) => {
  t.response = await redeemAuthorizationCode({
    client: t.client!,
    code: required(t.form, "code"),
    redirectUri: t.form.get("redirect_uri"),
    codeVerifier: t.form.get("code_verifier"),
  });
};

/** RFC 6749 §6, with rotation. */
export const refresh: TTokenStep = async (t) => {
  t.response = await refreshGrant({ client: t.client!, token: required(t.form, "refresh_token"), scope: t.form.get("scope") });
};

const GRANTS: Record<TGrantType, TTokenStep[]> = {
  client_credentials: [checkScope, issueClientToken],
  authorization_code: [redeemCode],
  refresh_token: [refresh],
};

export const runGrant: TTokenStep = async (t) => {
  for (const step of GRANTS[t.grantType!]) await step(t);
};

/** Counts the issued answer by grant type (the metrics' idp_oauth_tokens_issued_total). */
export const countIssued: TTokenStep = (t) => {
  countIssuedToken(t.grantType!);
};

/** The token endpoint as a list of small steps, in the order RFC 6749 §4 and §5 imply. */
export const TOKEN_STEPS: TTokenStep[] = [parseForm, authenticate, checkGrantType, runGrant, countIssued];

/** Runs the steps; `onClient` learns who authenticated, even when a later step refuses the request. */
export async function runTokenRequest(req: TIncoming, onClient: (id: string) => void = () => undefined, steps = TOKEN_STEPS) {
  const t: TTokenRequest = { req, form: new Map() };
  for (const step of steps) {
    await step(t);
    if (step === authenticate) onClient(t.client!.id);
  }
  return t.response!;
}
