/**
 * Ready-to-paste code for an application, filled in with its own values: openid-client for Node
 * (every kind), a curl for client credentials and Auth.js for a web application. The e2e suite
 * performs these flows with openid-client against the service (e2e/console-applications.spec.ts).
 */

export type TQuickStartApp = {
  id: string;
  name: string;
  kind: "web" | "spa" | "m2m";
  redirectUris: string[];
  scopes: string[];
  userScopes: string[];
  grantTypes: string[];
};

export type TSnippet = { key: "openid-client" | "curl" | "authjs"; title: string; language: "js" | "ts" | "sh"; code: string };

const q = (s: string) => JSON.stringify(s);

/** Plain http is for a server on the developer's machine; openid-client refuses it unless told. */
function insecureOption(issuer: string): string {
  return issuer.startsWith("http:") ? ",\n  { execute: [client.allowInsecureRequests] }, // the issuer is plain http: only for local development" : "";
}

function signInScope(app: TQuickStartApp): string {
  const offline = app.grantTypes.includes("refresh_token") ? ["offline_access"] : [];
  return ["openid", "profile", "email", ...offline, ...app.userScopes].join(" ");
}

function openidClientSignIn(app: TQuickStartApp, issuer: string): string {
  const credentials =
    app.kind === "web"
      ? `process.env.CLIENT_SECRET,\n  client.ClientSecretBasic(process.env.CLIENT_SECRET)`
      : `{ token_endpoint_auth_method: "none" },\n  client.None()`;
  return `import * as client from "openid-client";

const config = await client.discovery(
  new URL(${q(issuer)}),
  ${q(app.id)},
  ${credentials}${insecureOption(issuer)},
);
const redirect_uri = ${q(app.redirectUris[0] ?? "https://app.example.com/callback")};

// 1. Sign-in: keep code_verifier and state with the browser's session, then redirect to url.
const code_verifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const url = client.buildAuthorizationUrl(config, {
  redirect_uri,
  scope: ${q(signInScope(app))},
  code_challenge: await client.calculatePKCECodeChallenge(code_verifier),
  code_challenge_method: "S256",
  state,
});

// 2. Callback: the URL the browser came back to.
const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
  pkceCodeVerifier: code_verifier,
  expectedState: state,
});
const { sub } = tokens.claims();
const profile = await client.fetchUserInfo(config, tokens.access_token, sub);
`;
}

function openidClientCredentials(app: TQuickStartApp, issuer: string): string {
  return `import * as client from "openid-client";

const config = await client.discovery(
  new URL(${q(issuer)}),
  ${q(app.id)},
  process.env.CLIENT_SECRET,
  client.ClientSecretBasic(process.env.CLIENT_SECRET)${insecureOption(issuer)},
);

const { access_token, expires_in } = await client.clientCredentialsGrant(config, {
  scope: ${q(app.scopes.join(" "))},
});
`;
}

/** A word for a POSIX shell: single-quoted, so `$`, backticks and `;` in a value (a scope from an import) stay text. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function curlCredentials(app: TQuickStartApp, tokenEndpoint: string): string {
  // The secret stays a variable the shell expands; everything else is quoted as a literal.
  return `curl -s -u ${sh(`${app.id}:`)}"$CLIENT_SECRET" \\
  -d grant_type=client_credentials \\
  --data-urlencode ${sh(`scope=${app.scopes.join(" ")}`)} \\
  ${sh(tokenEndpoint)}
`;
}

function authJs(app: TQuickStartApp, issuer: string): string {
  return `// auth.ts (Auth.js / next-auth v5); register https://<your app>/api/auth/callback/idp as a redirect URI.
import NextAuth from "next-auth";

export const { handlers, auth, signIn, signOut } = NextAuth({
  providers: [
    {
      id: "idp",
      name: ${q(app.name)},
      type: "oidc",
      issuer: ${q(issuer)},
      clientId: ${q(app.id)},
      clientSecret: process.env.AUTH_IDP_SECRET,
      checks: ["pkce", "state"],
      authorization: { params: { scope: ${q(signInScope(app))} } },
    },
  ],
});
`;
}

export function quickStartSnippets(app: TQuickStartApp, endpoints: { issuer: string; token: string }): TSnippet[] {
  if (app.kind === "m2m") {
    return [
      { key: "curl", title: "curl", language: "sh", code: curlCredentials(app, endpoints.token) },
      { key: "openid-client", title: "Node.js (openid-client)", language: "js", code: openidClientCredentials(app, endpoints.issuer) },
    ];
  }
  const snippets: TSnippet[] = [{ key: "openid-client", title: "Node.js (openid-client)", language: "js", code: openidClientSignIn(app, endpoints.issuer) }];
  if (app.kind === "web") snippets.push({ key: "authjs", title: "Next.js (Auth.js)", language: "ts", code: authJs(app, endpoints.issuer) });
  return snippets;
}
