import { AppError } from "../errors/app-error.ts";
import type { TProviderKey } from "../federation/federation.schemas.ts";

// Stand-in for the redirect-flow core (server/federation/external-auth, another branch) until it is
// merged: the same signatures, refusing to start.

export type TExternalIdentity = {
  provider: TProviderKey;
  sid: string;
  userName?: string;
  claims: Record<string, unknown>;
  tokens: { accessToken: string; refreshToken?: string; expiresAt?: Date };
};

export type TPendingExternalAuth = { flowId?: string | null };

export async function startExternalAuth(input: { provider: TProviderKey; purpose: "bind" | "login"; userId?: string; flowId?: string; returnTo?: string; isPopup?: boolean }): Promise<{ redirectTo: string }> {
  throw new AppError("federation.provider_not_found", { params: { ...input.provider } });
}

export async function rememberExternalTokens(userId: string, identity: TExternalIdentity): Promise<void> {
  void userId;
  void identity;
}
