import { createHash, randomBytes } from "node:crypto";
import { ClientsPage } from "../pages/clients.page.ts";
import { uniqueClientId } from "./admin.ts";

export type TRelyingParty = { id: string; redirectUri: string };

/**
 * An application that signs users in through the service, created in the console: confidential,
 * not first-party (so the consent page is shown), returning to a page of the service's own origin
 * (a 404 there, but a real address the browser can reach and a test can read the code from).
 */
export async function createRelyingParty(clients: ClientsPage): Promise<TRelyingParty> {
  const id = uniqueClientId();
  const redirectUri = new URL("e2e-callback", `${process.env.E2E_BASE_URL!.replace(/\/?$/, "/")}`).toString();
  await clients.goto();
  await clients.create({ id, name: `Shop ${id}`, scopes: "", redirectUris: redirectUri, grantTypes: ["authorization_code"] });
  await clients.takeOneTimeSecret();
  return { id, redirectUri };
}

/**
 * The authorization request an application sends the browser with (path relative to the context
 * path), with PKCE as every client must send it; these tests never redeem the code, so the verifier
 * is not kept.
 */
export function authorizePath(rp: TRelyingParty, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: rp.id,
    redirect_uri: rp.redirectUri,
    scope: "openid profile email",
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    code_challenge_method: "S256",
    ...extra,
  });
  return `oauth/ae?${params}`;
}
