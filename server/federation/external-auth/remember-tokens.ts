import { sealFor } from "../../crypto/keys.ts";
import { requireProvider } from "../providers.service.ts";
import type { TExternalIdentity } from "./external-auth.types.ts";
import { upsertTokens } from "./tokens.repository.ts";

export const sealToken = (token: string) => sealFor("federation-tokens", token);

/**
 * After a bind or a sign-in through the provider: when the provider remembers tokens, stores the
 * access and refresh tokens sealed, for the binding of identity.sid to userId (nothing when that
 * binding is not the user's). Otherwise stores nothing.
 */
export async function rememberExternalTokens(userId: string, identity: TExternalIdentity): Promise<void> {
  const provider = await requireProvider(identity.provider);
  if (!provider.rememberTokens) return;
  const { accessToken, refreshToken, expiresAt } = identity.tokens;
  await upsertTokens(userId, {
    ...identity.provider,
    sid: identity.sid,
    accessToken: sealToken(accessToken),
    refreshToken: refreshToken !== undefined ? sealToken(refreshToken) : null,
    expiresAt: expiresAt ?? null,
  });
}
