import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { request as httpsRequest } from "node:https";
import { connect as tlsConnect } from "node:tls";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { Browser } from "../support/browser.ts";
import { appSignIn, trpcCall } from "../support/console.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { webAuthorization } from "../support/oidc.ts";
import { makeCertificates, type TCert } from "../support/tls-certs.ts";

// A server of its own that terminates TLS, asks for client certificates verified against a test CA,
// and trusts a proxy's certificate header from 127.0.0.1 only. Calls that must come "directly" (not
// from the proxy) connect from 127.0.0.2, which Linux routes over loopback like 127.0.0.1.
const DIRECT = "127.0.0.2";
const PROXY = "127.0.0.1";
const PROXY_HEADER = "x-ssl-client-cert";

const certs = makeCertificates({
  clients: { svc: "svc-app.example.com", shared: "shared.example.com", groups: "groups.example.com", nobody: "nobody.example.com", locked: "locked.example.com" },
  otherCaCn: "svc-app.example.com",
  expiredCn: "svc-app.example.com",
});

/** The suite's fixture plus clients that share a CN (tls-a, tls-b) and one with the v2 groups scope. */
function importDocument() {
  const doc = JSON.parse(readFileSync(IMPORT_FIXTURE, "utf8")) as { clients: unknown[] };
  doc.clients.push(
    { id: "tls-a", name: "TLS A", secret: "tls-a-secret-123", scopes: ["idp_api_sys_users"], tlsCNs: ["shared.example.com"] },
    { id: "tls-b", name: "TLS B", secret: "tls-b-secret-123", scopes: ["idp_api_sys_users"], tlsCNs: ["shared.example.com"] },
    { id: "tls-groups", name: "TLS groups", secret: "tls-groups-secret", scopes: ["idp_groups"], tlsCNs: ["groups.example.com"] },
    { id: "tls-locked", name: "TLS locked out", secret: "tls-locked-secret", scopes: ["idp_api_sys_users"], tlsCNs: ["locked.example.com"] },
  );
  return doc;
}

type TCall = { from?: string; cert?: TCert; headers?: Record<string, string>; form?: Record<string, string> };
type TAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: any; text: string };

let server: Awaited<ReturnType<typeof startServer>>;
let db: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
let dataDir: string;

/** One request over a new TLS connection (no pooling: each call presents its own certificate, or none). */
function call(method: string, pathname: string, opts: TCall & { baseUrl?: string } = {}): Promise<TAnswer> {
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  const url = new URL((opts.baseUrl ?? server.baseUrl) + pathname);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method,
        agent: false,
        ca: certs.ca.cert,
        cert: opts.cert?.cert,
        key: opts.cert?.key,
        localAddress: opts.from ?? DIRECT,
        headers: { ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...opts.headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const grant = (clientId: string, opts: TCall & { baseUrl?: string } = {}) =>
  call("POST", "/oauth/te", { ...opts, form: { grant_type: "client_credentials", scope: "idp_api_sys_users", client_id: clientId, ...opts.form } });
/** nginx's $ssl_client_escaped_cert: the PEM, URL-encoded. */
const escaped = (c: TCert) => encodeURIComponent(c.cert);
const search = (opts: TCall & { baseUrl?: string } = {}) => call("GET", `/api/v1/users?query=${encodeURIComponent("surname=Иван*")}`, opts);
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

/** Runs `fn` with this process's fetch not checking the server's certificate (it does not know the test CA; the server is told by NODE_EXTRA_CA_CERTS). */
async function withoutCaCheck(fn: () => Promise<void>): Promise<void> {
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  try {
    await fn();
  } finally {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  }
}

function expectInvalidClient(r: TAnswer) {
  expect(r.status, r.text).toBe(401);
  expect(r.body).toMatchObject({ error: "invalid_client" });
  expect(r.headers["www-authenticate"]).toMatch(/^Basic realm="idp"/);
}
function expectBasicRefused(r: TAnswer) {
  expect(r.status, r.text).toBe(401);
  expect(r.body).toMatchObject({ type: "security_error", error: "invalid_credential" });
}

/** A data directory with the import document. */
function newDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "idp-tls-server-"));
  writeFileSync(path.join(dir, "import.json"), JSON.stringify(importDocument()));
  return { dir, importFile: path.join(dir, "import.json") };
}

beforeAll(async () => {
  if (inject("dbKind") === "postgres") db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
  const { dir, importFile } = newDataDir();
  dataDir = dir;
  server = await startServer({ tlsCa: certs.ca.cert, env: serverEnv(importFile, dataDir, db) });
});

function serverEnv(importFile: string, dataDir: string, db?: { url: string }): Record<string, string> {
  return {
    IDP_TLS_CERT: certs.server.certFile,
    IDP_TLS_KEY: certs.server.keyFile,
    IDP_TLS_CLIENT_CA: certs.ca.certFile,
    IDP_TLS_CLIENT_CERT_HEADER: PROXY_HEADER,
    IDP_TLS_PROXY_ADDRESSES: `${PROXY}/32, ::1`,
    // Many refusals of svc-app follow one another here; the limits on failures are another test's subject.
    // No proxy in front, as most installations start: per-address limits count the TCP peer.
    IDP_TRUSTED_PROXIES: "0",
    // Low enough for one test to reach with wrong secrets (certificates are not counted), in a window
    // short enough that the other tests' refusals under svc-app do not add up to it.
    IDP_CLIENT_AUTH_FAILURES: "20",
    IDP_CLIENT_AUTH_WINDOW: "3",
    IDP_CLIENT_AUTH_IP_FAILURES: "100000",
    IDP_IMPORT: importFile,
    IDP_ADMIN_PASSWORD: inject("adminPassword"),
    IDP_DATA_DIR: dataDir,
    // The console exchanges its sign-in code at the server's own https://127.0.0.1 (IDP_INTERNAL_URL's default with TLS).
    NODE_EXTRA_CA_CERTS: certs.ca.certFile,
    ...(db ? { DATABASE_URL: db.url, IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef" } : {}),
  };
}

afterAll(async () => {
  await server?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(certs.dir, { recursive: true, force: true });
});

describe("TLS with client certificates (IDP_TLS_CERT, IDP_TLS_KEY, IDP_TLS_CLIENT_CA)", () => {
  it("serves HTTPS, and pages to a browser without a certificate", async () => {
    const ready = await call("GET", "/health/ready");
    expect(ready.status).toBe(200);
    // Served over https: browsers are told never to use plain http here again.
    expect(ready.headers["strict-transport-security"]).toBe("max-age=31536000");
    // The sign-in page of an authorization request (Next's path), to a connection without a certificate.
    const { url } = webAuthorization({}, server.baseUrl);
    const authorize = await call("GET", url.slice(server.baseUrl.length));
    expect(authorize.status).toBe(302);
    const location = new URL(String(authorize.headers.location), server.baseUrl).toString();
    expect(location.startsWith(`${server.baseUrl}/`), location).toBe(true);
    const cookies = ([] as string[]).concat(authorize.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const page = await call("GET", location.slice(server.baseUrl.length), { headers: { cookie: cookies } });
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    expect(page.text).toContain('id="identifier"');
  });

  it("the console signs in over HTTPS: next-auth exchanges its code at the server's own https:// internal URL", async () => {
    await withoutCaCheck(async () => {
      const browser = new Browser({}, server.baseUrl);
      const landed = await appSignIn(browser, server.baseUrl, "console", "admin", inject("adminPassword"));
      expect(landed.url).toBe(`${server.baseUrl}/console/dashboard`);
      // Under https next-auth's cookies carry the __Secure- prefix.
      const token = browser.cookies.get("__Secure-idp-console.session-token");
      expect(token).toBeTruthy();
      const clients = await trpcCall(server.baseUrl, `__Secure-idp-console.session-token=${token}`, "console.clients.list", {});
      expect(clients.status).toBe(200);
      expect(clients.body.result?.data.items.map((c: { id: string }) => c.id)).toContain("svc-app");
    });
  });

  it("without trusted proxies, counts a failed client authentication at the TCP peer, whatever X-Forwarded-For claims", async () => {
    const refused = await grant("svc-app", { headers: { authorization: basic("svc-app", "not-the-secret"), "x-forwarded-for": "203.0.113.77" } });
    expectInvalidClient(refused);
    await withoutCaCheck(async () => {
      const browser = new Browser({}, server.baseUrl);
      await appSignIn(browser, server.baseUrl, "console", "admin", inject("adminPassword"));
      const cookie = `__Secure-idp-console.session-token=${browser.cookies.get("__Secure-idp-console.session-token")}`;
      const events = async (ip: string) =>
        (await trpcCall(server.baseUrl, cookie, "console.events.list", { type: "client.auth_failed", ip, limit: 100 })).body.result?.data.items as { clientId: string }[];
      expect((await events(DIRECT)).map((e) => e.clientId)).toContain("svc-app");
      expect(await events("203.0.113.77")).toEqual([]);
    });
  });

  it("lists tls_client_auth in discovery, since certificates can arrive here", async () => {
    const r = await call("GET", "/.well-known/openid-configuration");
    expect(r.status).toBe(200);
    expect(r.body.issuer).toBe(server.baseUrl);
    expect(r.body.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "tls_client_auth", "none"]);
    expect(r.body.introspection_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post", "tls_client_auth"]);
  });

  it("token endpoint: tls_client_auth issues a token that works, and introspection accepts the certificate too", async () => {
    const r = await grant("svc-app", { cert: certs.clients.svc });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ token_type: "Bearer", scope: "idp_api_sys_users" });
    const user = await call("GET", "/api/v3/users/ivanov", { headers: { authorization: `Bearer ${r.body.access_token}` } });
    expect(user.status, user.text).toBe(200);
    expect(user.body.family_name).toBe("Иванов");
    const intro = await call("POST", "/oauth/introspect", { cert: certs.clients.svc, form: { client_id: "svc-app", token: r.body.access_token } });
    expect(intro.status, intro.text).toBe(200);
    expect(intro.body).toMatchObject({ active: true, client_id: "svc-app" });
  });

  it("token endpoint: a CN the named client does not list, nobody's CN, another CA, an expired certificate, no certificate: invalid_client", async () => {
    expectInvalidClient(await grant("svc-app", { cert: certs.clients.shared }));
    expectInvalidClient(await grant("svc-app", { cert: certs.clients.nobody }));
    expectInvalidClient(await grant("post-app", { cert: certs.clients.svc })); // a client without tlsCNs
    expectInvalidClient(await grant("svc-app", { cert: certs.otherCaClient }));
    expectInvalidClient(await grant("svc-app", { cert: certs.expiredClient }));
    expectInvalidClient(await grant("svc-app"));
    expectInvalidClient(await grant("ghost-app", { cert: certs.clients.svc }));
    // With a secret as well, the secret decides (client_secret_post), as before.
    expect((await grant("post-app", { cert: certs.clients.svc, form: { client_secret: "post-secret-123" } })).status).toBe(200);
  });

  it("token endpoint: a public client holding a certificate is answered as without one (token_endpoint_auth_method none)", async () => {
    const without = await grant("rp-spa");
    const withCert = await grant("rp-spa", { cert: certs.clients.svc });
    expect(without.body.error).not.toBe("invalid_client");
    expect([withCert.status, withCert.body]).toEqual([without.status, without.body]);
  });

  it("v1: a certificate whose CN one client lists authenticates that client, as HTTP Basic does", async () => {
    const r = await search({ cert: certs.clients.svc });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((u: { attrs: { uid: string } }) => u.attrs.uid)).toEqual(["ivanov", "ivanova"]);
    // Named as the Basic login with an empty password: the same client.
    expect((await search({ cert: certs.clients.svc, headers: { authorization: basic("svc-app", "") } })).status).toBe(200);
    // HTTP Basic with a password still decides by the password, certificate or not.
    expectBasicRefused(await search({ cert: certs.clients.svc, headers: { authorization: basic("svc-app", "wrong") } }));
    expect((await search({ headers: { authorization: basic("svc-app", "rest-password-123") } })).status).toBe(200);
  });

  it("v1: nobody's CN, another CA, an expired certificate, a CN two clients list (unless named), a client that does not list it: refused", async () => {
    expectBasicRefused(await search({ cert: certs.clients.nobody }));
    expectBasicRefused(await search({ cert: certs.otherCaClient }));
    expectBasicRefused(await search({ cert: certs.expiredClient }));
    expectBasicRefused(await search({ cert: certs.clients.shared }));
    expect((await search({ cert: certs.clients.shared, headers: { authorization: basic("tls-b", "") } })).status).toBe(200);
    expectBasicRefused(await search({ cert: certs.clients.svc, headers: { authorization: basic("tls-b", "") } }));
    expectBasicRefused(await search());
  });

  it("refuses TLS renegotiation, which could otherwise swap the verified certificate for another after the handshake", async () => {
    const { port } = new URL(server.baseUrl);
    const socket = tlsConnect({ host: "127.0.0.1", port: Number(port), ca: certs.ca.cert, cert: certs.clients.nobody.cert, key: certs.clients.nobody.key, maxVersion: "TLSv1.2" as const });
    try {
      await once(socket, "secureConnect");
      const outcome = await new Promise<Error | null>((resolve) => {
        socket.once("error", resolve);
        socket.once("close", () => resolve(new Error("closed")));
        // OpenSSL refuses with a warning alert and goes on with the first session: no new handshake ever completes.
        setTimeout(() => resolve(new Error("no new handshake")), 3000);
        if (!socket.renegotiate({ rejectUnauthorized: false }, (err) => resolve(err ?? null))) resolve(new Error("not started"));
      });
      expect(outcome).not.toBeNull();
    } finally {
      socket.destroy();
    }
  });

  it("token endpoint: a stranger's wrong secrets under a client's id do not lock out the holder of its certificate", async () => {
    // Different guesses: the same wrong secret sent in parallel is judged once.
    const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => grant("tls-locked", { form: { client_secret: `guessed-wrong-${i}` } })));
    expect(attempts.map((r) => r.status)).toContain(429);
    expect((await grant("tls-locked", { form: { client_secret: "tls-locked-secret" } })).status).toBe(429);
    const byCertificate = await grant("tls-locked", { cert: certs.clients.locked });
    expect(byCertificate.status, byCertificate.text).toBe(200);
  });

  it("v2: the certificate's client needs the operation's scope like a Basic client", async () => {
    const groups = await call("GET", "/api/v2/grps", { cert: certs.clients.groups });
    expect(groups.status, groups.text).toBe(200);
    expect(groups.body.length).toBeGreaterThan(0);
    const lacking = await call("GET", "/api/v2/grps", { cert: certs.clients.svc });
    expect(lacking.status, lacking.text).toBe(403);
  });
});

describe("a TLS-terminating proxy's certificate header (IDP_TLS_CLIENT_CERT_HEADER, IDP_TLS_PROXY_ADDRESSES)", () => {
  it("is believed from the proxy's address, verified against the CA", async () => {
    const r = await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } });
    expect(r.status, r.text).toBe(200);
    expect((await search({ from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } })).status).toBe(200);
    // The certificate's DER in base64, without PEM armour, is accepted too.
    const der = certs.clients.svc.cert.replace(/-----[^-]+-----|\s/g, "");
    expect((await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: der } })).status).toBe(200);
    // PEM with spaces for its line breaks, as Apache and HAProxy pass it.
    const spaced = certs.clients.svc.cert.trim().replace(/\n/g, " ");
    expect((await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: spaced } })).status).toBe(200);
  });

  it("from the proxy: another CA's certificate, an expired one, nobody's CN, garbage: nobody", async () => {
    expectInvalidClient(await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.otherCaClient) } }));
    expectInvalidClient(await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.expiredClient) } }));
    expectInvalidClient(await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.clients.nobody) } }));
    expectInvalidClient(await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: "%%not-a-certificate" } }));
    expectInvalidClient(await grant("svc-app", { from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.ca) } })); // the CA itself
    expectBasicRefused(await search({ from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.otherCaClient) } }));
  });

  it("from the proxy, only the header counts: the connection's own certificate is the proxy's", async () => {
    expectInvalidClient(await grant("svc-app", { from: PROXY, cert: certs.clients.svc }));
  });

  it("is ignored from any other address", async () => {
    expectInvalidClient(await grant("svc-app", { from: DIRECT, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } }));
    expectBasicRefused(await search({ from: DIRECT, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } }));
    // Not even with a certificate of nobody on the connection: the connection's certificate decides.
    expectInvalidClient(await grant("svc-app", { from: DIRECT, cert: certs.clients.nobody, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } }));
  });
});

describe("the internal identity header", () => {
  it("cannot be forged by a client, directly or through the proxy", async () => {
    const claim = Buffer.from(JSON.stringify({ cn: "svc-app.example.com", fp: "00", via: "tls" })).toString("base64url");
    for (const forged of [`${claim}.${"A".repeat(43)}`, claim, "svc-app.example.com"]) {
      const headers = { "x-idp-tls-client": forged };
      expectInvalidClient(await grant("svc-app", { headers }));
      expectInvalidClient(await grant("svc-app", { from: PROXY, headers }));
      expectInvalidClient(await grant("svc-app", { cert: certs.clients.nobody, headers }));
      expectBasicRefused(await search({ headers }));
    }
  });
});

describe("through Next's request handler (IDP_FAST_PATH=0)", () => {
  let viaNext: Awaited<ReturnType<typeof startServer>>;
  let nextDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let nextDir: string;

  beforeAll(async () => {
    if (inject("dbKind") === "postgres") nextDb = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const { dir, importFile } = newDataDir();
    nextDir = dir;
    viaNext = await startServer({ tlsCa: certs.ca.cert, env: { ...serverEnv(importFile, dir, nextDb), IDP_FAST_PATH: "0" } });
  });

  afterAll(async () => {
    await viaNext?.stop();
    await nextDb?.drop();
    rmSync(nextDir, { recursive: true, force: true });
  });

  it("authenticates by certificate and by the proxy's header, and refuses the same failures", async () => {
    const baseUrl = viaNext.baseUrl;
    expect((await grant("svc-app", { baseUrl, cert: certs.clients.svc })).status).toBe(200);
    expect((await search({ baseUrl, cert: certs.clients.svc })).status).toBe(200);
    expect((await grant("svc-app", { baseUrl, from: PROXY, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } })).status).toBe(200);
    expectInvalidClient(await grant("svc-app", { baseUrl, cert: certs.otherCaClient }));
    expectInvalidClient(await grant("svc-app", { baseUrl, headers: { [PROXY_HEADER]: escaped(certs.clients.svc) } }));
    expectBasicRefused(await search({ baseUrl, cert: certs.clients.nobody }));
    const claim = Buffer.from(JSON.stringify({ cn: "svc-app.example.com", fp: "00", via: "tls" })).toString("base64url");
    expectInvalidClient(await grant("svc-app", { baseUrl, headers: { "x-idp-tls-client": `${claim}.${"A".repeat(43)}` } }));
  });
});
