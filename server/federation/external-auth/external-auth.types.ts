import type { TProviderKey } from "../federation.schemas.ts";

/** What a redirect to an external provider is for; the callback dispatches on it (handlers.ts). */
export type TExternalAuthPurpose = "bind" | "login";

/** An external account as its provider confirmed it at the callback, with the tokens it handed out. */
export type TExternalIdentity = {
  provider: TProviderKey;
  sid: string;
  userName?: string;
  claims: Record<string, unknown>;
  tokens: { accessToken: string; refreshToken?: string; expiresAt?: Date };
};

/** A request sent to a provider, as the callback finds it (consumed: it cannot be found again). */
export type TPendingExternalAuth = {
  /** The hash of its state: what the binding's browser cookie is derived from (bind-browser.ts). */
  stateHash: string;
  provider: TProviderKey;
  purpose: TExternalAuthPurpose;
  userId: string | null;
  flowId: string | null;
  /** The application that asked (events name it). */
  clientId: string | null;
  returnTo: string | null;
  isPopup: boolean;
  nonce: string | null;
  /** In the clear, unsealed for the token request. */
  codeVerifier: string;
  expiresAt: Date;
};
