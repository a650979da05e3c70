import { providerUrlProblem } from "./provider-urls.ts";
import { OutboundRefused, outboundFetch } from "../http/outbound.ts";

/*
 * Fetching an OpenID provider's discovery document (OpenID Connect Discovery 1.0 §4). Used by the
 * console's "test discovery" button now, and by the redirect flows later. It reports what it found or
 * what went wrong in words an administrator can act on; it never throws for a bad provider.
 */

export const DISCOVERY_TIMEOUT_MS = 5_000;
export const DISCOVERY_MAX_BYTES = 256 * 1024;
const WELL_KNOWN = "/.well-known/openid-configuration";

export type TDiscoveredProvider = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  jwksUri: string;
  scopesSupported?: string[];
  claimsSupported?: string[];
};
export type TDiscoveryResult = { ok: true; url: string; found: TDiscoveredProvider } | { ok: false; url: string; error: string };
export type TDiscoveryOptions = { timeoutMs?: number; maxBytes?: number; expectedIssuer?: string };

/** The discovery URL (given as the issuer or as the whole well-known URL) and the issuer it implies. */
export function discoveryTarget(given: string): { url: string; issuer: string } {
  const trimmed = given.replace(/\/+$/, "");
  if (trimmed.endsWith(WELL_KNOWN)) return { url: trimmed, issuer: trimmed.slice(0, -WELL_KNOWN.length) };
  return { url: trimmed + WELL_KNOWN, issuer: trimmed };
}

class DiscoveryProblem extends Error {}

/** The body as text, refused (an Error saying so) beyond maxBytes, declared or streamed. */
export async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new DiscoveryProblem(`the document is larger than ${maxBytes} bytes`);
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new DiscoveryProblem(`the document is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function stringField(doc: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const v = doc[name];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v === "") throw new DiscoveryProblem(`the document has no ${name}`);
  const problem = providerUrlProblem(v);
  if (problem && name !== "issuer") throw new DiscoveryProblem(`${name} ${v}: ${problem}`);
  return v;
}

const stringList = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === "string") ? (v as string[]) : undefined);

function parseDocument(text: string, issuer: string, expectedIssuer: string | undefined): TDiscoveredProvider {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new DiscoveryProblem("the response is not JSON");
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new DiscoveryProblem("the response is not a JSON object");
  const d = doc as Record<string, unknown>;
  const found = stringField(d, "issuer", true)!;
  // §4.3: the issuer must be exactly the URL the document was fetched under, or tokens could be mixed up between providers.
  if (found !== issuer) throw new DiscoveryProblem(`the issuer is ${found}, expected ${issuer}`);
  if (expectedIssuer !== undefined && found !== expectedIssuer) throw new DiscoveryProblem(`the issuer is ${found}, but the provider is configured with ${expectedIssuer}`);
  return {
    issuer: found,
    authorizationEndpoint: stringField(d, "authorization_endpoint", true)!,
    tokenEndpoint: stringField(d, "token_endpoint", false),
    userinfoEndpoint: stringField(d, "userinfo_endpoint", false),
    jwksUri: stringField(d, "jwks_uri", true)!,
    scopesSupported: stringList(d.scopes_supported),
    claimsSupported: stringList(d.claims_supported),
  };
}

function describeFailure(e: unknown, timeoutMs: number): string {
  if (e instanceof DiscoveryProblem) return e.message;
  if (e instanceof OutboundRefused) return `refused: ${e.message}`;
  const name = (e as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs} ms`;
  const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
  return `cannot reach the provider: ${cause?.code ?? cause?.message ?? (e as Error)?.message ?? "network error"}`;
}

/** Fetches and checks the discovery document of an `oidc` provider. Redirects are not followed: the issuer must answer itself. */
export async function discoverProvider(discoveryUrl: string, options: TDiscoveryOptions = {}): Promise<TDiscoveryResult> {
  const timeoutMs = options.timeoutMs ?? DISCOVERY_TIMEOUT_MS;
  const { url, issuer } = discoveryTarget(discoveryUrl);
  const problem = providerUrlProblem(url);
  if (problem) return { ok: false, url, error: problem };
  try {
    const res = await outboundFetch(url, { redirect: "manual", headers: { accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new DiscoveryProblem(`the provider answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? " (a redirect, not followed)" : ""}`);
    }
    const text = await readLimited(res, options.maxBytes ?? DISCOVERY_MAX_BYTES);
    return { ok: true, url, found: parseDocument(text, issuer, options.expectedIssuer) };
  } catch (e) {
    return { ok: false, url, error: describeFailure(e, timeoutMs) };
  }
}
