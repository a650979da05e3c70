import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeCertificates } from "../../test/support/tls-certs.ts";
import { tlsClientIdentity } from "../http/tls-identity.ts";
import { createListener, identify, loadTlsConfig } from "./tls.mjs";

const certs = makeCertificates({ clients: { svc: "svc-app.example.com" }, otherCaCn: "svc-app.example.com", expiredCn: "svc-app.example.com" });
const notPem = path.join(certs.dir, "not.pem");
writeFileSync(notPem, "hello\n");
afterAll(() => rmSync(certs.dir, { recursive: true, force: true }));

const server = { IDP_TLS_CERT: certs.server.certFile, IDP_TLS_KEY: certs.server.keyFile };
const proxy = { IDP_TLS_CLIENT_CERT_HEADER: "X-SSL-Client-Cert", IDP_TLS_PROXY_ADDRESSES: "10.0.0.0/8 192.168.1.7,fd00::/8", IDP_TLS_CLIENT_CA: certs.ca.certFile };

describe("loadTlsConfig: start-up errors name the variable", () => {
  it.each([
    [{ IDP_TLS_CERT: certs.server.certFile }, /^IDP_TLS_KEY: must be set together with IDP_TLS_CERT/],
    [{ IDP_TLS_KEY: certs.server.keyFile }, /^IDP_TLS_CERT: must be set together with IDP_TLS_KEY/],
    [{ ...server, IDP_TLS_CERT: "/nonexistent/cert.pem" }, /^IDP_TLS_CERT: cannot read "\/nonexistent\/cert.pem": ENOENT/],
    [{ ...server, IDP_TLS_KEY: notPem }, /^IDP_TLS_KEY: ".*not.pem" holds no PEM private key/],
    [{ ...server, IDP_TLS_KEY: certs.clients.svc.keyFile }, /^IDP_TLS_CERT\/IDP_TLS_KEY: .*key values mismatch/],
    [{ ...server, IDP_TLS_CLIENT_CA: certs.server.keyFile }, /^IDP_TLS_CLIENT_CA: .* holds no PEM certificate/],
    [{ IDP_TLS_CLIENT_CA: certs.ca.certFile }, /^IDP_TLS_CLIENT_CA: needs IDP_TLS_CERT and IDP_TLS_KEY .* or IDP_TLS_CLIENT_CERT_HEADER/],
    [{ ...proxy, IDP_TLS_PROXY_ADDRESSES: "" }, /^IDP_TLS_PROXY_ADDRESSES: must be set together with IDP_TLS_CLIENT_CERT_HEADER/],
    [{ ...proxy, IDP_TLS_CLIENT_CERT_HEADER: "" }, /^IDP_TLS_CLIENT_CERT_HEADER: must be set together with IDP_TLS_PROXY_ADDRESSES/],
    [{ ...proxy, IDP_TLS_CLIENT_CA: "" }, /^IDP_TLS_CLIENT_CA: is required with IDP_TLS_CLIENT_CERT_HEADER/],
    [{ ...proxy, IDP_TLS_PROXY_ADDRESSES: "10.0.0.0/33" }, /^IDP_TLS_PROXY_ADDRESSES: "10.0.0.0\/33" is not an IP address or CIDR/],
    [{ ...proxy, IDP_TLS_PROXY_ADDRESSES: "proxy.local" }, /^IDP_TLS_PROXY_ADDRESSES: "proxy.local" is not an IP address or CIDR/],
    [{ ...proxy, IDP_TLS_PROXY_ADDRESSES: "10.0.0.5, 0.0.0.0/0" }, /^IDP_TLS_PROXY_ADDRESSES: "0.0.0.0\/0" would trust every address/],
    [{ ...proxy, IDP_TLS_PROXY_ADDRESSES: "::/0" }, /^IDP_TLS_PROXY_ADDRESSES: "::\/0" would trust every address/],
    [{ ...proxy, IDP_TLS_CLIENT_CERT_HEADER: "x ssl" }, /^IDP_TLS_CLIENT_CERT_HEADER: "x ssl" is not a header name/],
  ])("%o", (env, message) => {
    expect(() => loadTlsConfig(env)).toThrow(message);
  });

  it("nothing set: plain HTTP, no certificates", () => {
    expect(loadTlsConfig({})).toEqual({ server: undefined, cas: [], proxy: undefined });
  });

  it("TLS with a client CA, and a proxy header", () => {
    const c = loadTlsConfig({ ...server, ...proxy });
    expect(c.server?.ca).toContain("BEGIN CERTIFICATE");
    expect(c.cas).toHaveLength(1);
    expect(c.proxy?.header).toBe("x-ssl-client-cert");
    expect(c.proxy?.addresses.check("10.1.2.3", "ipv4")).toBe(true);
    expect(c.proxy?.addresses.check("192.168.1.8", "ipv4")).toBe(false);
    expect(c.proxy?.addresses.check("fd00::1", "ipv6")).toBe(true);
  });
});

describe("identify: what a request may claim", () => {
  createListener(() => undefined, { ...server, ...proxy });
  const req = (remoteAddress: string, headers: Record<string, string>) =>
    ({ headers: { ...headers }, socket: { remoteAddress, encrypted: true, authorized: false } }) as unknown as import("node:http").IncomingMessage;
  const identityOf = (r: import("node:http").IncomingMessage) => {
    identify(r);
    const h = new Headers(Object.entries(r.headers).map(([k, v]): [string, string] => [k, String(v)]));
    return { identity: tlsClientIdentity(new Request("https://x/", { headers: h })), headers: r.headers };
  };
  const header = encodeURIComponent(certs.clients.svc.cert);

  it("a trusted proxy's header, also over an IPv4-mapped IPv6 peer address", () => {
    for (const peer of ["10.9.8.7", "::ffff:192.168.1.7"]) {
      const { identity, headers } = identityOf(req(peer, { "x-ssl-client-cert": header }));
      expect(identity).toEqual({ cn: "svc-app.example.com", fp: expect.any(String), via: "proxy" });
      expect(headers["x-ssl-client-cert"]).toBeUndefined();
    }
  });

  it("the header from another address, another CA, an expired certificate: nobody, and the header is gone", () => {
    for (const r of [
      req("192.168.1.8", { "x-ssl-client-cert": header }),
      req("10.0.0.1", { "x-ssl-client-cert": encodeURIComponent(certs.otherCaClient.cert) }),
      req("10.0.0.1", { "x-ssl-client-cert": encodeURIComponent(certs.expiredClient.cert) }),
    ]) {
      const { identity, headers } = identityOf(r);
      expect(identity).toBeUndefined();
      expect(headers["x-ssl-client-cert"]).toBeUndefined();
      expect(headers["x-idp-tls-client"]).toBeUndefined();
    }
  });

  it("a client's own copy of the internal header is removed", () => {
    const { identity, headers } = identityOf(req("192.168.1.8", { "x-idp-tls-client": "eyJjbiI6InN2Yy1hcHAuZXhhbXBsZS5jb20ifQ.AAAA" }));
    expect(identity).toBeUndefined();
    expect(headers["x-idp-tls-client"]).toBeUndefined();
  });
});
