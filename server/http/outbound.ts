import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { getConfig } from "../config/config.ts";

/*
 * Requests the service makes to URLs an administrator typed (external providers' discovery, token,
 * userinfo and key endpoints) must not become a way into the network the service sits in: its own
 * loopback, the cloud's metadata address, the databases on private addresses. Every such request
 * goes through this fetch, which checks the address it actually connects to, after DNS, so a name
 * that resolves (or later re-resolves) to a private address is refused too. IDP_OUTBOUND_ALLOW names
 * the hosts and ranges that are allowed anyway (a provider on the company network; tests on loopback).
 */

// Ranges no administrator-typed URL may reach unless allowed: RFC 1918, loopback, link-local (cloud
// metadata), shared address space, "this network", multicast and reserved, and their IPv6 kin.
const PRIVATE = new BlockList();
for (const [net, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
// ::/96 holds the IPv4-compatible forms (::7f00:1), ::ffff:0:0:0/96 the IPv4-translated ones, and
// NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16) embed an IPv4 address that may be private.
for (const [net, prefix] of [["::", 96], ["::1", 128], ["::ffff:0:0:0", 96], ["100::", 64], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["2002::", 16]] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

export class OutboundRefused extends Error {
  override name = "OutboundRefused";
}

type TAllowed = { hosts: Set<string>; ranges: BlockList };
let allowedCache: { source: string; allowed: TAllowed } | undefined;

/** IDP_OUTBOUND_ALLOW parsed: host names, and addresses or CIDR ranges. */
function allowed(): TAllowed {
  const source = getConfig().outboundAllow.join(",");
  if (allowedCache?.source === source) return allowedCache.allowed;
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of getConfig().outboundAllow) {
    const [address, prefix] = entry.split("/");
    const family = isIP(address!);
    if (family) ranges.addSubnet(address!, prefix ? Number(prefix) : family === 4 ? 32 : 128, family === 4 ? "ipv4" : "ipv6");
    else hosts.add(entry.toLowerCase());
  }
  allowedCache = { source, allowed: { hosts, ranges } };
  return allowedCache.allowed;
}

/** Why the service may not connect to `address` (an IP), or undefined when it may. */
export function addressProblem(address: string): string | undefined {
  // An IPv4-mapped IPv6 address is the IPv4 address it maps.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 4 ? "ipv4" : "ipv6";
  if (!PRIVATE.check(ip, family) || allowed().ranges.check(ip, family)) return undefined;
  return `${ip} is a private, loopback or link-local address (IDP_OUTBOUND_ALLOW can allow it)`;
}

/** dns.lookup, keeping only addresses the service may connect to. */
function guardedLookup(hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : "", 0);
    const open = allowed().hosts.has(hostname.toLowerCase()) ? addresses : addresses.filter((a) => !addressProblem(a.address));
    if (!open.length) return callback(new OutboundRefused(`${hostname} resolves only to ${addressProblem(addresses[0]?.address ?? "") ?? "no address"}`), options.all ? [] : "", 0);
    if (options.all) return callback(null, open);
    callback(null, open[0]!.address, open[0]!.family);
  });
}

const agent = new Agent({ connect: { lookup: guardedLookup as never } });

/**
 * fetch for administrator-typed URLs. Refuses (OutboundRefused, before any byte is sent) a URL whose
 * host is a private address, or a name that resolves only to such addresses, unless allowed.
 */
export async function outboundFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  // An address in the URL is connected to without a lookup: checked here instead.
  if (isIP(host) && !allowed().hosts.has(host)) {
    const problem = addressProblem(host);
    if (problem) throw new OutboundRefused(problem);
  }
  try {
    // Never followed: a redirect to an address literal would be connected to without the lookup's check.
    return (await undiciFetch(target, { ...(init as object), redirect: "manual", dispatcher: agent })) as unknown as Response;
  } catch (e) {
    // undici wraps the lookup's error in a TypeError("fetch failed"): the refusal is the cause.
    if ((e as { cause?: unknown }).cause instanceof OutboundRefused) throw (e as { cause: OutboundRefused }).cause;
    throw e;
  }
}

/**
 * The address to connect to for an administrator-typed host, for protocols fetch does not carry
 * (SMTP): the same rules as outboundFetch. The caller connects to this address and names the host
 * for TLS, so a second lookup cannot send it elsewhere.
 */
export async function resolveOutbound(hostname: string): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const problem = allowed().hosts.has(host) ? undefined : addressProblem(host);
    if (problem) throw new OutboundRefused(problem);
    return host;
  }
  return new Promise((resolve, reject) => {
    guardedLookup(host, {}, (err, address) => (err ? reject(err) : resolve(address as string)));
  });
}
