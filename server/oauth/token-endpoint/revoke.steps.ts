import { recordEvent } from "../../audit/audit.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { introspect, type TIntrospection } from "../introspection.service.ts";
import { revokeRefreshToken } from "../grants/refresh-tokens.service.ts";
import { revokeAccessToken } from "../tokens/revocation.service.ts";
import { authenticateTokenClient, SECRET_AUTH_METHODS } from "./client-auth.ts";
import { readForm, required } from "../../http/form.ts";
import type { TIncoming } from "../../http/exchange.ts";

function tokenTypeHint(form: Map<string, string>): "access_token" | "refresh_token" | undefined {
  const hint = form.get("token_type_hint");
  if (hint !== undefined && hint !== "access_token" && hint !== "refresh_token") {
    throw new AppError("oauth.invalid_request", { desc: "token_type_hint must be access_token or refresh_token" });
  }
  return hint;
}

/**
 * RFC 7009 token revocation. An invalid, expired or foreign token gets the same 200 as a revoked
 * one, so the endpoint tells a caller nothing about tokens it does not own. Revoking a refresh token
 * revokes its family and the access tokens issued with it (RFC 7009 §2.1).
 */
export async function runRevocation(req: TIncoming, onClient: (id: string) => void = () => undefined): Promise<void> {
  const form = await readForm(req);
  const { client } = await authenticateTokenClient(req, form);
  onClient(client.id);
  const token = required(form, "token");
  const hint = tokenTypeHint(form);
  const tryAccess = () => revokeAccessToken(token, client.id);
  const tryRefresh = () => revokeRefreshToken(token, client.id);
  const [first, second] = hint === "refresh_token" || token.split(".").length !== 3 ? [tryRefresh, tryAccess] : [tryAccess, tryRefresh];
  const revoked = (await first()) ?? (await second());
  if (revoked) await recordEvent("token.revoked", { clientId: client.id }, revoked);
}

/** RFC 7662 token introspection, for confidential clients only (a public one cannot authenticate). */
export async function runIntrospection(req: TIncoming, onClient: (id: string) => void = () => undefined): Promise<TIntrospection> {
  const form = await readForm(req);
  const { client } = await authenticateTokenClient(req, form, SECRET_AUTH_METHODS);
  onClient(client.id);
  return introspect(required(form, "token"), tokenTypeHint(form), client.id);
}
