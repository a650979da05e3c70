import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

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
