// TLS termination and client certificates for the production server.
//
// - IDP_TLS_CERT + IDP_TLS_KEY (PEM files): the server speaks HTTPS itself. With IDP_TLS_CLIENT_CA it
//   asks every client for a certificate and verifies it against that CA, but does not require one:
//   browsers on the console and portal have none. Only a certificate the handshake verified
//   (socket.authorized) counts.
// - IDP_TLS_CLIENT_CERT_HEADER + IDP_TLS_PROXY_ADDRESSES: a TLS-terminating proxy passes the client's
//   certificate in that header (nginx: `$ssl_client_escaped_cert`, URL-encoded PEM). Believed only from
//   a connection whose TCP peer is one of those addresses (never X-Forwarded-For, which anyone writes),
//   and verified here again against IDP_TLS_CLIENT_CA, with its validity period: the proxy may accept
//   certificates of other CAs for other sites.
//
// How the verified identity reaches the handlers. Both paths (fast path, Next) hand the handler a Web
// Request built from the Node request's headers, so the identity travels as a header, IDENTITY_HEADER.
// A client must never be able to write it, so:
//   1. identify() runs first for every request: it deletes any copy the client sent (and the proxy
//      header from an untrusted peer), then sets its own;
//   2. its value is HMAC-signed with a key made at random in this process and kept on globalThis
//      (server/http/tls-identity.ts checks it). `next start` and `next dev` do not run this file: no
//      key exists there, nothing strips the header, and the request layer believes no header at all,
//      so without this server nobody authenticates by certificate. The key never leaves the process
//      (not in the environment, which child processes inherit), and a signed value is useless
//      elsewhere: every process, cluster worker or restart has its own key.
import { X509Certificate, constants, createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { BlockList, isIP } from "node:net";
import { createSecureContext } from "node:tls";
// PEER_HEADER carries the TCP peer's address, written over whatever a client sent for every request;
// server/http/tls-identity.ts believes it (and a signed IDENTITY_HEADER) only in a process where
// createListener ran.
import { PEER_HEADER, TLS_IDENTITY_HEADER as IDENTITY_HEADER } from "../http/tls-headers.mjs";
const STATE = Symbol.for("idp.tls-client-identity");
const CLIENT_AUTH_EKU = "1.3.6.1.5.5.7.3.2";
const MAX_HEADER_CERT = 16 * 1024;

export class TlsConfigError extends Error {
  name = "TlsConfigError";
}

function readPem(variable, file, label) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new TlsConfigError(`${variable}: cannot read ${JSON.stringify(file)}: ${e.code ?? e.message}`);
  }
  if (!new RegExp(`-----BEGIN [A-Z ]*${label}-----`).test(text)) throw new TlsConfigError(`${variable}: ${JSON.stringify(file)} holds no PEM ${label.toLowerCase()}`);
  return text;
}

/** Every certificate of a PEM bundle (a CA file may hold several). */
function certificates(variable, file, pem) {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch (e) {
    throw new TlsConfigError(`${variable}: ${JSON.stringify(file)}: not a valid certificate (${e.message})`);
  }
}

/** IPs and CIDRs, comma- or space-separated, IPv4 or IPv6. */
function addressList(variable, value) {
  const list = new BlockList();
  const items = value.split(/[\s,]+/).filter(Boolean);
  if (items.length === 0) throw new TlsConfigError(`${variable}: must list at least one IP address or CIDR`);
  for (const item of items) {
    const [ip, bits, extra] = item.split("/");
    const family = isIP(ip ?? "");
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
      throw new TlsConfigError(`${variable}: ${JSON.stringify(item)} is not an IP address or CIDR (e.g. 10.0.0.5, 10.0.0.0/24, fd00::/8)`);
    }
    // Every address: anyone could then send a copy of a client's certificate (public, unlike its key) in the header.
    if (bits !== undefined && Number(bits) === 0) throw new TlsConfigError(`${variable}: ${JSON.stringify(item)} would trust every address; list the proxies' own addresses`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return list;
}

/**
 * The TLS settings of `env`, or a TlsConfigError naming the variable. Pure apart from reading files.
 * @param {Record<string, string | undefined>} env
 */
export function loadTlsConfig(env) {
  const set = (name) => (env[name] ?? "").trim() || undefined;
  const certFile = set("IDP_TLS_CERT");
  const keyFile = set("IDP_TLS_KEY");
  const caFile = set("IDP_TLS_CLIENT_CA");
  const header = set("IDP_TLS_CLIENT_CERT_HEADER");
  const proxies = set("IDP_TLS_PROXY_ADDRESSES");
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new TlsConfigError(`${certFile ? "IDP_TLS_KEY" : "IDP_TLS_CERT"}: must be set together with ${certFile ? "IDP_TLS_CERT" : "IDP_TLS_KEY"} (both PEM file paths, or neither for plain HTTP)`);
  }
  if (header && !/^[A-Za-z0-9-]{1,64}$/.test(header)) throw new TlsConfigError(`IDP_TLS_CLIENT_CERT_HEADER: ${JSON.stringify(header)} is not a header name`);
  if (Boolean(header) !== Boolean(proxies)) {
    throw new TlsConfigError(`${header ? "IDP_TLS_PROXY_ADDRESSES" : "IDP_TLS_CLIENT_CERT_HEADER"}: must be set together with ${header ? "IDP_TLS_CLIENT_CERT_HEADER" : "IDP_TLS_PROXY_ADDRESSES"} (a certificate header is believed only from the proxy's addresses)`);
  }
  if (header && !caFile) throw new TlsConfigError("IDP_TLS_CLIENT_CA: is required with IDP_TLS_CLIENT_CERT_HEADER (the certificate a proxy passes is verified against it)");
  if (caFile && !certFile && !header) {
    throw new TlsConfigError("IDP_TLS_CLIENT_CA: needs IDP_TLS_CERT and IDP_TLS_KEY (the server terminates TLS) or IDP_TLS_CLIENT_CERT_HEADER (a proxy does)");
  }
  const caPem = caFile ? readPem("IDP_TLS_CLIENT_CA", caFile, "CERTIFICATE") : undefined;
  const cas = caPem ? certificates("IDP_TLS_CLIENT_CA", caFile, caPem) : [];
  const server = certFile ? { cert: readPem("IDP_TLS_CERT", certFile, "CERTIFICATE"), key: readPem("IDP_TLS_KEY", keyFile, "PRIVATE KEY"), ca: caPem } : undefined;
  if (server) {
    try {
      createSecureContext(server);
    } catch (e) {
      // A key that does not match the certificate, an encrypted key, an unsupported algorithm.
      throw new TlsConfigError(`IDP_TLS_CERT/IDP_TLS_KEY: ${e.message}`);
    }
  }
  return {
    server,
    cas,
    proxy: header ? { header: header.toLowerCase(), addresses: addressList("IDP_TLS_PROXY_ADDRESSES", proxies) } : undefined,
  };
}

/** A wrong setting stops the process with a line naming the variable, like the other start-up checks. */
function loadOrExit(env) {
  try {
    return loadTlsConfig(env);
  } catch (e) {
    if (!(e instanceof TlsConfigError)) throw e;
    process.stderr.write(`idp: cannot start: ${e.message}\n`);
    process.exit(1);
  }
}

// Checked when server.mjs imports this module, before Next and the database start: a wrong setting
// stops the server at once, not after its boot.
const fromEnvironment = loadOrExit(process.env);

/** @type {{ key: Buffer; config: ReturnType<typeof loadTlsConfig> } | undefined} */
let active;

/**
 * The server for `handler`: HTTPS when IDP_TLS_CERT/IDP_TLS_KEY are set, plain HTTP otherwise.
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} handler
 * @param {Record<string, string | undefined>} [env] other settings than the environment's (tests)
 */
export function createListener(handler, env) {
  const config = env ? loadOrExit(env) : fromEnvironment;
  active = { key: randomBytes(32), config };
  // What the request layer may read: the key, and whether certificates can arrive at all (discovery lists tls_client_auth only then).
  globalThis[STATE] = { key: active.key, receives: Boolean((config.server && config.cas.length) || config.proxy) };
  if (!config.server) return createHttpServer(handler);
  const { cert, key, ca } = config.server;
  // requestCert without rejectUnauthorized: a browser without a certificate, or with one of another
  // CA, still gets its pages; such a connection simply authenticates nobody (socket.authorized false).
  // No renegotiation (TLS 1.2): Node keeps socket.authorized from the first handshake, so a client
  // could present a CA's certificate, renegotiate with a self-signed one naming another client, and
  // be believed as that client. With renegotiation refused the certificate of a connection is fixed.
  const server = createHttpsServer({ cert, key, secureOptions: constants.SSL_OP_NO_RENEGOTIATION, ...(ca ? { ca, requestCert: true, rejectUnauthorized: false } : {}) }, handler);
  server.on("secureConnection", (socket) => socket.disableRenegotiation());
  return server;
}

/** Within the validity period `[from, to]` (ms), checked on every request: a certificate expires under a cache or a keep-alive connection. */
function valid(parsed) {
  const now = Date.now();
  return parsed !== null && now >= parsed.from && now <= parsed.to ? { cn: parsed.cn, fp: parsed.fp, via: parsed.via } : undefined;
}

/** The one subject CN of a legacy certificate object; none, several (an array) or one with control characters (a NUL …): no identity. */
function commonName(subject) {
  const cn = subject?.CN;
  // eslint-disable-next-line no-control-regex
  return typeof cn === "string" && cn.length > 0 && cn.length <= 255 && !/[\u0000-\u001f\u007f]/.test(cn) ? cn : undefined;
}

/**
 * What this service accepts of a certificate, on both paths: not a CA, allowed for client
 * authentication when it states its uses (as OpenSSL checks in a handshake), and issued directly by
 * one of the configured CAs and signed by it (checkIssued compares names only). Directly: over TLS a
 * client may send a chain through an intermediate CA below a configured one, which the handshake
 * accepts; a proxy's header carries no chain, so that path could not accept it, and the two agree.
 */
function acceptable(cert, cas) {
  if (cert.ca) return false;
  if (Array.isArray(cert.keyUsage) && !cert.keyUsage.includes(CLIENT_AUTH_EKU)) return false;
  return cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey));
}

/** @typedef {{ cn: string; fp: string; via: "tls" | "proxy"; from: number; to: number } | null} TParsed */

/** @type {WeakMap<import("node:net").Socket, TParsed>} one parse per connection */
const bySocket = new WeakMap();

/** A certificate the handshake verified (socket.authorized: signed by IDP_TLS_CLIENT_CA, in its validity period), and acceptable. */
function fromSocket(socket, cas) {
  if (!socket.encrypted || !socket.authorized || socket.authorizationError) return undefined;
  let parsed = bySocket.get(socket);
  if (parsed === undefined) {
    const peer = socket.getPeerX509Certificate();
    const cn = peer && acceptable(peer, cas) ? commonName(peer.toLegacyObject().subject) : undefined;
    parsed = cn ? { cn, fp: peer.fingerprint256, via: "tls", from: Date.parse(peer.validFrom), to: Date.parse(peer.validTo) } : null;
    bySocket.set(socket, parsed);
  }
  return valid(parsed);
}

// A proxy sends the same few certificates again and again: each is verified once (a signature check),
// its validity period on every request. Bounded; the oldest entry goes first.
const MAX_CACHED = 1000;
/** @type {Map<string, TParsed>} */
const byHeader = new Map();

/** The header's certificate: URL-encoded PEM (nginx), PEM with spaces for line breaks (Apache, HAProxy), or base64 DER; verified against the CA list. */
function fromHeader(raw, cas) {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_HEADER_CERT) return undefined;
  let parsed = byHeader.get(raw);
  if (parsed === undefined) {
    parsed = parseHeader(raw, cas);
    if (byHeader.size >= MAX_CACHED) byHeader.delete(byHeader.keys().next().value);
    byHeader.set(raw, parsed);
  }
  return valid(parsed);
}

/** @returns {TParsed} */
function parseHeader(raw, cas) {
  let cert;
  try {
    const text = raw.includes("%") ? decodeURIComponent(raw) : raw;
    // The base64 between the PEM markers, whatever stands for its line breaks.
    const pem = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(text);
    cert = new X509Certificate(Buffer.from((pem ? pem[1] : text).replace(/\s+/g, ""), "base64"));
  } catch {
    return null;
  }
  if (!acceptable(cert, cas)) return null;
  const cn = commonName(cert.toLegacyObject().subject);
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return cn && Number.isFinite(from) && Number.isFinite(to) ? { cn, fp: cert.fingerprint256, via: "proxy", from, to } : null;
}

/** The TCP peer, with an IPv4-mapped IPv6 address (::ffff:10.0.0.5) as the IPv4 address it is. */
function peerAddress(socket) {
  const a = socket.remoteAddress ?? "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? { ip: mapped[1], type: "ipv4" } : { ip: a, type: isIP(a) === 6 ? "ipv6" : "ipv4" };
}

/**
 * Call first for every request: removes whatever identity headers the client sent and, when the
 * connection or a trusted proxy presents a verified certificate, sets IDENTITY_HEADER, signed.
 * From a trusted proxy only its header counts (its own certificate, if any, is the proxy's).
 * @param {import("node:http").IncomingMessage} req
 */
export function identify(req) {
  delete req.headers[IDENTITY_HEADER];
  if (!active) return;
  req.headers[PEER_HEADER] = peerAddress(req.socket).ip;
  const { config, key } = active;
  let identity;
  let trustedPeer = false;
  if (config.proxy) {
    const raw = req.headers[config.proxy.header];
    delete req.headers[config.proxy.header];
    const { ip, type } = peerAddress(req.socket);
    trustedPeer = ip !== "" && config.proxy.addresses.check(ip, type);
    if (trustedPeer) identity = fromHeader(raw, config.cas);
  }
  if (!trustedPeer && config.server) identity = fromSocket(req.socket, config.cas);
  if (!identity) return;
  const payload = Buffer.from(JSON.stringify(identity)).toString("base64url");
  req.headers[IDENTITY_HEADER] = `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`;
}
