import { recordEvent } from "../../audit/audit.service.ts";
import { authenticateClient, authenticateTlsClient, identifyPublicClient, type TClientAuthRow } from "../../clients/clients.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { browserIp } from "../../http/request-context.ts";
import { guardClientAuth } from "../../clients/client-auth-limits.ts";
import { receivesClientCertificates, tlsClientIdentity, type TTlsIdentity } from "../../http/tls-identity.ts";
import type { TIncoming } from "../../http/exchange.ts";

/**
 * "none": a public client names itself with client_id and nothing else (RFC 7591 §2).
 * "tls_client_auth" (RFC 8705 §2.1): client_id in the form and a client certificate, verified by the
 * server (server/http/tls-identity.ts), whose subject CN is one of the client's `tlsCNs`.
 */
export type TClientAuthMethod = "client_secret_basic" | "client_secret_post" | "tls_client_auth" | "none";
/** Methods of confidential clients: the only ones introspection accepts. */
export const SECRET_AUTH_METHODS: TClientAuthMethod[] = ["client_secret_basic", "client_secret_post", "tls_client_auth"];
export const CLIENT_AUTH_METHODS: TClientAuthMethod[] = [...SECRET_AUTH_METHODS, "none"];

/** For discovery: what works in this process; tls_client_auth only where certificates can arrive. */
export function advertisedAuthMethods(methods: TClientAuthMethod[]): TClientAuthMethod[] {
  return receivesClientCertificates() ? methods : methods.filter((m) => m !== "tls_client_auth");
}

function invalidClient(desc: string): AppError {
  return new AppError("oauth.invalid_client", { desc });
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before base64, so a secret may contain ":". */
function decodeBasic(header: string): { id: string; secret: string } {
  const [scheme, value] = header.split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "basic" || !value) throw invalidClient("unsupported authentication scheme; use HTTP Basic");
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) throw invalidClient("malformed HTTP Basic credentials");
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient("malformed HTTP Basic credentials");
  }
}

/**
 * Finds the one authentication method the client used; two at once is invalid_request. A client_id
 * with no secret is tls_client_auth when the request carries a verified certificate (a public
 * client's certificate changes nothing: authenticateTokenClient takes it as "none").
 */
function presented(req: TIncoming, form: Map<string, string>): { id: string; secret?: string; cert?: TTlsIdentity; method: TClientAuthMethod } {
  const header = req.headers.get("authorization");
  const postSecret = form.get("client_secret");
  if (header && postSecret !== undefined) {
    throw new AppError("oauth.invalid_request", { desc: "use one client authentication method, not HTTP Basic and client_secret together" });
  }
  if (header) {
    const basic = decodeBasic(header);
    const formId = form.get("client_id");
    if (formId !== undefined && formId !== basic.id) throw new AppError("oauth.invalid_request", { desc: "client_id does not match the authenticated client" });
    return { ...basic, method: "client_secret_basic" };
  }
  const id = form.get("client_id");
  if (id && postSecret) return { id, secret: postSecret, method: "client_secret_post" };
  if (id && postSecret === undefined) {
    const cert = tlsClientIdentity(req);
    return cert ? { id, cert, method: "tls_client_auth" } : { id, method: "none" };
  }
  throw invalidClient("client authentication is required");
}

/**
 * Authenticates the calling client or throws invalid_client (401, with a Basic challenge). A public
 * client is identified by its id alone, and only where `methods` admits "none". Over the limit of
 * failures for the client id or the address: 429 invalid_client with Retry-After.
 */
export async function authenticateTokenClient(
  req: TIncoming,
  form: Map<string, string>,
  methods: TClientAuthMethod[] = CLIENT_AUTH_METHODS,
): Promise<{ client: TClientAuthRow; method: TClientAuthMethod }> {
  const { id, secret, cert, method: presentedMethod } = presented(req, form);
  // A public client has no credentials to check, whatever certificate the browser holds: that is "none".
  const method = cert && (await identifyPublicClient(id)).ok ? "none" : presentedMethod;
  if (!methods.includes(method)) throw invalidClient("client authentication is required");
  const ip = browserIp(req);
  if (method === "tls_client_auth" && cert) {
    // Not behind the failure limits: a certificate cannot be guessed, and a stranger's wrong secrets
    // under the client's id must not lock the holder of its certificate out (v1/v2 do the same).
    const result = await authenticateTlsClient(id, cert.cn);
    if (result.ok) return { client: result.client, method };
    await recordEvent("client.auth_failed", { clientId: id.slice(0, 128), ip }, { reason: result.reason, method });
    throw invalidClient("client authentication failed");
  }
  const guard = await guardClientAuth("secret", id, ip);
  const result = secret === undefined ? await identifyPublicClient(id) : await authenticateClient(id, secret, guard.judge);
  if (!result.ok) {
    // A presented secret was counted where it was checked (a dummy's check for an unknown or disabled
    // client); a public client's id alone, naming no public client, here.
    if (secret === undefined) await guard.failed();
    await recordEvent("client.auth_failed", { clientId: id.slice(0, 128), ip }, { reason: result.reason, method });
    throw invalidClient("client authentication failed");
  }
  return { client: result.client, method };
}
