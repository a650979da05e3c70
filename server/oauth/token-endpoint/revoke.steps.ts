import { recordEvent } from "../../audit/audit.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { revokeAccessToken } from "../tokens/revocation.service.ts";
import { authenticateTokenClient } from "./client-auth.ts";
import { readForm, required } from "./form.ts";

/**
 * RFC 7009 token revocation. An invalid, expired or foreign token gets the same 200 as a revoked
 * one, so the endpoint tells a caller nothing about tokens it does not own.
 */
export async function runRevocation(req: Request, onClient: (id: string) => void = () => undefined): Promise<void> {
  const form = await readForm(req);
  const { client } = await authenticateTokenClient(req, form);
  onClient(client.id);
  const token = required(form, "token");
  const hint = form.get("token_type_hint");
  if (hint !== undefined && hint !== "access_token" && hint !== "refresh_token") {
    throw new AppError("oauth.invalid_request", { desc: "token_type_hint must be access_token or refresh_token" });
  }
  const revoked = await revokeAccessToken(token, client.id);
  if (revoked) await recordEvent("token.revoked", { clientId: client.id }, { jti: revoked.jti });
}
