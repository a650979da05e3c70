import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import type { Browser, TPage } from "./browser.ts";

/**
 * panva's oidc-provider (a certified OpenID provider nobody here wrote) on a loopback port: the real
 * external identity provider that federation tests and the console's e2e spec run against.
 */
export type TExternalProvider = { issuer: string; close: () => Promise<void> };

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startExternalProvider(clients: { client_id: string; client_secret: string; redirect_uris: string[] }[] = []): Promise<TExternalProvider> {
  const server = createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, { clients, claims: { openid: ["sub"], profile: ["preferred_username", "name"] } });
  server.on("request", provider.callback());
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A server that serves fixed answers (or never answers), for the failures a real provider will not produce on demand. */
export async function startFakeProvider(answer: (issuer: string, path: string) => { status: number; type?: string; body: string } | "hang"): Promise<TExternalProvider> {
  const server = createServer();
  const hanging = new Set<import("node:http").ServerResponse>();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  server.on("request", (req, res) => {
    const a = answer(issuer, req.url ?? "/");
    if (a === "hang") return void hanging.add(res);
    res.writeHead(a.status, { "content-type": a.type ?? "application/json" }).end(a.body);
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The service's client at the federation provider (see startFederationProvider). */
export const FEDERATION_CLIENT = { id: "idp-service", secret: "idp-service-secret-at-ext" };

export type TFederationProvider = TExternalProvider & {
  /** Refresh grants served, per account (sub). */
  refreshes: Map<string, number>;
  /** From now on the provider refuses this account's refresh tokens (invalid_grant). */
  revoke: (sub: string) => void;
};

/**
 * panva's oidc-provider as the external provider of the redirect flows: a confidential client for the
 * service (FEDERATION_CLIENT, client_secret_basic), any login accepted on its own dev login and
 * consent pages (sub = login, with preferred_username and email), refresh tokens issued, revocation
 * on. Tests in other processes (Playwright, the API suite's server) reach its helpers over HTTP:
 * `POST /test/revoke?sub=` makes it refuse that account's refresh, `GET /test/refreshes?sub=` counts them,
 * `POST /test/slow?ms=` delays its token endpoint's answers (so parallel requests surely meet one in flight).
 */
export async function startFederationProvider(opts: { redirectUris: string[]; port?: number; accessTokenTtlS?: number }): Promise<TFederationProvider> {
  const server = createServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  const issuer = `http://127.0.0.1:${port}`;
  const revoked = new Set<string>();
  const refreshes = new Map<string, number>();
  let slowMs = 0;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: FEDERATION_CLIENT.id,
        client_secret: FEDERATION_CLIENT.secret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    // A revoked account is unknown to the provider: its refresh grant fails with invalid_grant.
    findAccount: (_ctx: unknown, sub: string) =>
      revoked.has(sub) ? undefined : { accountId: sub, claims: () => ({ sub, preferred_username: sub, name: sub, email: `${sub}@ext.example.test`, email_verified: true }) },
    claims: { openid: ["sub"], profile: ["preferred_username", "name"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
    // Without offline_access (which oidc-provider honours only with prompt=consent): every grant of the client gets one.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed: (t: string) => boolean }) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: { AccessToken: opts.accessTokenTtlS ?? 3600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 86_400, RefreshToken: 86_400 },
    cookies: { keys: ["federation-provider-cookie-key-for-tests"] },
  }) as Provider & { on: (event: string, fn: (ctx: { oidc: { params?: Record<string, unknown>; entities?: Record<string, { accountId?: string }> } }) => void) => void };
  provider.on("grant.success", (ctx) => {
    if (ctx.oidc.params?.grant_type !== "refresh_token") return;
    const sub = ctx.oidc.entities?.Account?.accountId ?? "";
    refreshes.set(sub, (refreshes.get(sub) ?? 0) + 1);
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const sub = url.searchParams.get("sub") ?? "";
    if (url.pathname === "/test/revoke" && req.method === "POST") {
      revoked.add(sub);
      return void res.writeHead(204).end();
    }
    if (url.pathname === "/test/slow" && req.method === "POST") {
      slowMs = Number(url.searchParams.get("ms") ?? "0");
      return void res.writeHead(204).end();
    }
    if (url.pathname === "/token" && slowMs > 0) return void setTimeout(() => callback(req, res), slowMs);
    if (url.pathname === "/test/refreshes") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ sub, refreshes: refreshes.get(sub) ?? 0 }));
    callback(req, res);
  });
  return {
    issuer,
    refreshes,
    revoke: (sub) => void revoked.add(sub),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A person at the federation provider's own pages, over HTTP: from the authorization URL through its
 * login form (as `login`) and consent form, until it sends the browser off the provider (to the
 * service's callback). `abort`: the person cancels at the login page instead.
 */
export async function signInAtProvider(browser: Browser, authorizationUrl: string, login: string, opts: { abort?: boolean } = {}): Promise<TPage> {
  const origin = new URL(authorizationUrl).origin;
  let page = await browser.fetch(authorizationUrl);
  for (let hops = 0; hops < 12; hops++) {
    if (page.location) {
      if (!page.location.startsWith(origin)) return page;
      page = await browser.fetch(page.location);
      continue;
    }
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post">([\s\S]*?)<\/form>/.exec(page.text);
    if (page.status !== 200 || !form) throw new Error(`unexpected provider page: ${page.status} ${page.url}\n${page.text.slice(0, 400)}`);
    const action = new URL(form[1]!.replace(/&amp;/g, "&"), page.url).toString();
    if (opts.abort) {
      page = await browser.fetch(action.replace(/\/interaction\/([^/]+).*$/, "/interaction/$1/abort"));
      continue;
    }
    const prompt = /name="prompt" value="([^"]+)"/.exec(form[2]!)?.[1] ?? "";
    const fields: Record<string, string> = prompt === "login" ? { prompt, login, password: "any" } : { prompt };
    page = await browser.fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  }
  throw new Error("the provider kept the browser for too many steps");
}
