#!/usr/bin/env node
// The comparison peer of `npm run bench` (bench/compare.mjs): panva's oidc-provider on a loopback
// port, in a process of its own (as our server is: the load generator must not share its event loop),
// with the in-memory adapter and one confidential client that may use client_credentials for the
// bench's scope. Access tokens are RFC 9068 JWTs (`typ: at+jwt`) signed ES256 with a P-256 key made
// at start, for one resource server that the grant gets by default — what our token endpoint issues.
// Stateless as ours: oidc-provider stores no JWT access token in its adapter.
// Environment: PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_SCOPE (space-separated). Prints one JSON line
// `{"port":…}` on stdout once it listens; stops on SIGTERM.
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import Provider from "oidc-provider";

const clientId = process.env.PEER_CLIENT_ID;
const clientSecret = process.env.PEER_CLIENT_SECRET;
const scope = process.env.PEER_SCOPE;
if (!clientId || !clientSecret || !scope) throw new Error("PEER_CLIENT_ID, PEER_CLIENT_SECRET and PEER_SCOPE are required");

const server = createServer();
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(0, "127.0.0.1", resolve);
});
const { port } = server.address();
const issuer = `http://127.0.0.1:${port}`;
// The audience of the tokens: our service puts its issuer there, so the peer does the same.
const resource = issuer;
const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const signingJwk = { ...privateKey.export({ format: "jwk" }), kid: "bench-es256", alg: "ES256", use: "sig" };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
      // Its only key is ES256 (the default, RS256, would need an RSA key it has no use for).
      id_token_signed_response_alg: "ES256",
      scope,
    },
  ],
  scopes: scope.split(" "),
  jwks: { keys: [signingJwk] },
  cookies: { keys: ["bench-peer-cookie-key-0123456789"] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // No `resource` parameter in the bench's request (ours has none): every grant is for this one.
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope, audience: resource, accessTokenTTL: 3600, accessTokenFormat: "jwt", jwt: { sign: { alg: "ES256" } } }),
    },
  },
});
server.on("request", provider.callback());
// Nothing to flush: the in-memory adapter dies with the process.
process.once("SIGTERM", () => process.exit(0));
console.log(JSON.stringify({ port }));
