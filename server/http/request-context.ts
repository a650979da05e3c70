import { randomUUID } from "node:crypto";
import { getConfig } from "../config/config.ts";
import { peerAddressOf } from "./tls-identity.ts";
import type { THasHeaders } from "./exchange.ts";

/** Who is calling. System mode: a client's own token; user mode: a user's token via a client. */
export type TActor =
  | { mode: "anonymous" }
  | { mode: "system"; clientId: string; scopes: readonly string[]; jti: string }
  | { mode: "user"; userId: string; clientId: string; scopes: readonly string[]; jti: string; sessionId?: string; authTime?: number; amr?: readonly string[] }
  | { mode: "basic"; clientId: string };

export type TRequestContext = {
  requestId: string;
  actor: TActor;
  /** User mode only: the end user's IP and User-Agent as the client application passed them. */
  ip?: string;
  userAgent?: string;
  /** Set by protocol endpoints that authenticate the client inside their own steps, for the log line. */
  clientId?: string;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Keeps a caller's X-Request-Id when it is sane, so logs can be joined across services. */
export function requestIdOf(req: THasHeaders): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The first address of X-Forwarded-For: the end user, as the calling application saw them. */
export function forwardedFor(req: THasHeaders): string | undefined {
  const first = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return first ? first.slice(0, 64) : undefined;
}

/**
 * The address of a browser that talks to the service itself (sign-in pages, client authentication):
 * what per-address limits count. Without trusted proxies it is the TCP peer, whatever
 * X-Forwarded-For claims, when the production server says who the peer is; under `next dev` and
 * `next start` it is not known, and Next sets X-Forwarded-For to the peer only when the request has
 * none. Each trusted reverse proxy appends the address it received from: the browser is the entry
 * IDP_TRUSTED_PROXIES from the right. Entries further left are whatever the browser claimed.
 */
export function browserIp(req: THasHeaders): string | undefined {
  const trusted = getConfig().trustedProxies;
  const peer = trusted === 0 ? peerAddressOf(req) : undefined;
  if (peer) return peer;
  const hops = (req.headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const ip = hops[hops.length - Math.max(trusted, 1)];
  return ip ? ip.slice(0, 64) : undefined;
}

/** A browser talking to the service itself: where it is and what it says it is, for the audit trail. */
export function browserActor(req: THasHeaders): { ip?: string; userAgent?: string } {
  return { ip: browserIp(req), userAgent: req.headers.get("user-agent")?.slice(0, 512) ?? undefined };
}

/** Who did it, for the audit trail: the client, the user in user mode, and where the call came from. */
export function eventActorOf(ctx: TRequestContext): { subject?: string; clientId?: string; ip?: string; userAgent?: string } {
  const a = ctx.actor;
  return {
    subject: a.mode === "user" ? a.userId : undefined,
    clientId: a.mode === "anonymous" ? ctx.clientId : a.clientId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
}
