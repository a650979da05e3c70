import { createHmac } from "node:crypto";
import { AUTH_APPS, AUTH_APP_NAMES, type TAuthApp } from "../auth/apps.ts";
import { getConfig } from "../config/config.ts";
import { keyFor } from "../crypto/keys.ts";
import { inTransaction } from "../db/index.ts";
import { applyClientImport, prepareClientImport, publishClientImport, type TClientImportResult } from "./clients.import.ts";
import { updateClientRow } from "./clients.repository.ts";
import type { TClientInput } from "./clients.schemas.ts";

/** Scopes the console and portal ask for: who signed in, with name and contacts for display. */
export const BUILTIN_SCOPES = "openid profile email phone";

/**
 * The secret of a built-in client, derived from the server key rather than generated: every instance
 * computes the same one, so nothing is stored in plain text or printed, and a new IDP_SECRET_KEY
 * brings a new secret (the stored hash follows at the next start).
 */
export function builtinClientSecret(clientId: string): string {
  return createHmac("sha256", keyFor("builtin-clients")).update(clientId).digest("base64url");
}

/** next-auth's callback under NEXTAUTH_URL (`{issuer}/api/auth`), named after the provider id. */
export function builtinRedirectUri(app: TAuthApp): string {
  return `${getConfig().issuer}/api/auth/callback/${AUTH_APPS[app].clientId}`;
}

/** What a built-in client must be, for the issuer this server runs under. */
export function builtinClientInput(app: TAuthApp): TClientInput {
  const { issuer } = getConfig();
  const { clientId, name, signIn } = AUTH_APPS[app];
  return {
    id: clientId,
    name,
    type: "confidential",
    secret: builtinClientSecret(clientId),
    firstParty: true,
    grantTypes: ["authorization_code"],
    scopes: [],
    userScopes: [],
    redirectUris: [builtinRedirectUri(app)],
    postLogoutRedirectUris: [`${issuer}${signIn}`],
  };
}

/**
 * Creates the console's and the portal's clients, or brings them back to what they must be: at every
 * start, so a new public URL, context path or IDP_SECRET_KEY, a row changed by hand or deleted, is
 * repaired before the first request. The console and the import refuse to change them
 * (`client.builtin`), so between starts nothing else writes them. Runs the import's own upsert: a
 * start that finds them as they should be writes nothing and hashes nothing.
 */
export async function ensureBuiltinClients(): Promise<TClientImportResult> {
  const prepared = await prepareClientImport(AUTH_APP_NAMES.map(builtinClientInput));
  const result = await inTransaction(async (tx) => {
    const applied = await applyClientImport(prepared, tx);
    // An import never re-enables a client; a built-in one must be usable.
    for (const p of prepared) {
      if (!p.existing || p.existing.enabled) continue;
      await updateClientRow(p.id, { enabled: true }, tx);
      applied.unchanged = applied.unchanged.filter((id) => id !== p.id);
      if (!applied.updated.includes(p.id)) applied.updated.push(p.id);
    }
    return applied;
  });
  await publishClientImport(result);
  return result;
}
