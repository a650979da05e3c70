import { recordEvent } from "../../audit/audit.service.ts";
import { authenticateClient, identifyPublicClient, type TClientAuthRow } from "../../clients/clients.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { browserIp } from "../../http/request-context.ts";
import { guardClientAuth } from "../../clients/client-auth-limits.ts";

/** "none": a public client names itself with client_id and nothing else (RFC 7591 §2). */
export type TClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";
/** Methods of confidential clients: the only ones introspection accepts. */
export const SECRET_AUTH_METHODS: TClientAuthMethod[] = ["client_secret_basic", "client_secret_post"];
export const CLIENT_AUTH_METHODS: TClientAuthMethod[] = [...SECRET_AUTH_METHODS, "none"];

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

/** Finds the one authentication method the client used; two at once is invalid_request. */
function presented(req: Request, form: Map<string, string>): { id: string; secret?: string; method: TClientAuthMethod } {
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
  if (id && postSecret === undefined) return { id, method: "none" };
  throw invalidClient("client authentication is required");
}

/**
 * Authenticates the calling client or throws invalid_client (401, with a Basic challenge). A public
 * client is identified by its id alone, and only where `methods` admits "none". Over the limit of
 * failures for the client id or the address: 429 invalid_client with Retry-After.
 */
export async function authenticateTokenClient(
  req: Request,
  form: Map<string, string>,
  methods: TClientAuthMethod[] = CLIENT_AUTH_METHODS,
): Promise<{ client: TClientAuthRow; method: TClientAuthMethod }> {
  const { id, secret, method } = presented(req, form);
  if (!methods.includes(method)) throw invalidClient("client authentication is required");
  const ip = browserIp(req);
  const guard = guardClientAuth("secret", id, ip);
  const result = secret === undefined ? await identifyPublicClient(id) : await authenticateClient(id, secret, guard.judge);
  if (!result.ok) {
    // A wrong secret was counted where it was checked; an unknown or disabled client, or the wrong kind of authentication, here.
    if (result.reason !== "bad_secret") await guard.failed();
    await recordEvent("client.auth_failed", { clientId: id.slice(0, 128), ip }, { reason: result.reason, method });
    throw invalidClient("client authentication failed");
  }
  return { client: result.client, method };
}
