import { hashOpaqueToken } from "../../crypto/opaque-token.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TFpType } from "../federation.schemas.ts";
import { unsealClientSecret } from "../provider-secrets.ts";
import type { TExternalAuthPurpose, TPendingExternalAuth } from "./external-auth.types.ts";
import { takeRequest, type TRequestRow } from "./requests.repository.ts";

const STATE = /^[A-Za-z0-9_-]{16,128}$/;

export function toPending(row: TRequestRow): TPendingExternalAuth {
  return {
    stateHash: row.stateHash,
    provider: { fpType: row.fpType as TFpType, fpName: row.fpName },
    purpose: row.purpose as TExternalAuthPurpose,
    userId: row.userId,
    flowId: row.flowId,
    clientId: row.clientId,
    returnTo: row.returnTo,
    isPopup: row.isPopup,
    nonce: row.nonce,
    codeVerifier: row.codeVerifier ? unsealClientSecret(row.codeVerifier) : "",
    expiresAt: row.expiresAt,
  };
}

/**
 * The request a state (or a v2 handle) names, taken out for good: a second use finds nothing. Unknown,
 * used or expired: 400 unknown_fa_request.
 */
export async function consumeRequest(secret: string | null, kind: "callback" | "handle", now = new Date()): Promise<TRequestRow> {
  const row = secret && STATE.test(secret) ? await takeRequest(hashOpaqueToken(secret), kind === "handle") : null;
  if (!row || row.expiresAt <= now) throw new AppError("federation.auth_request_not_found");
  return row;
}
