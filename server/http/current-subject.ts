/**
 * "current" stands for the token's own user wherever a subject is expected. Its own file: the
 * services that resolve it need the word, not the authenticator that checks the token.
 */
export const CURRENT_SUBJECT = "current";
