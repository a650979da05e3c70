// The redirect flow to external providers, as other domains use it (sign-in, the portal).
export { startExternalAuth, callbackUrl, type TStartExternalAuth } from "./start.service.ts";
export { rememberExternalTokens } from "./remember-tokens.ts";
export type { TExternalAuthHandler } from "./handlers.ts";
export type { TExternalAuthPurpose, TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";
export { handOutBind } from "./bind-flow.service.ts";
