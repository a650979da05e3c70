import { createHmac } from "node:crypto";
import type { AuthOptions, CookiesOptions, Session } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { BUILTIN_SCOPES, builtinClientSecret } from "../clients/builtin-clients.ts";
import { getConfig } from "../config/config.ts";
import { keyFor } from "../crypto/keys.ts";
import { log } from "../log/logger.ts";
import { isCutOff } from "../oauth/tokens/token-cutoffs.ts";
import { AUTH_APPS, type TAuthApp } from "./apps.ts";
import { admitToConsole } from "./console-admission.ts";

/**
 * What the apps keep of the ID token's claims: who, which sign-in session, when it was issued, and
 * when and how the person last signed in (the portal's step-up, server/auth/recent-sign-in.ts).
 */
type TIdTokenClaims = { sub: string; sid?: string; iat: number; auth_time?: number; amr?: string[] };

declare module "next-auth" {
  interface Session {
    user: { id: string };
    /**
     * The IdP session the sign-in belongs to and when its ID token was issued, checked against token
     * cutoffs. Every session next-auth reads carries it; only sessions made in-process (tests calling
     * procedures directly) lack it. `authTime` (seconds) and `amr` come from the validated ID token.
     */
    idp?: { sid?: string; iat: number; authTime?: number; amr?: string[] };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** Kept for RP-initiated logout (id_token_hint); never handed to the browser's scripts. */
    idToken?: string;
    sid?: string;
    idTokenIat?: number;
    authTime?: number;
    amr?: string[];
  }
}

/**
 * The service as the OpenID provider of its own applications. The browser goes to the public
 * authorization endpoint; the server exchanges the code and reads the signing keys over its internal
 * address (IDP_INTERNAL_URL), since behind a reverse proxy it may not reach its own public URL. The ID
 * token is validated by openid-client (signature against the JWKS, iss, aud, exp, nonce) before
 * next-auth creates a session.
 */
function idpProvider(app: TAuthApp): OAuthConfig<TIdTokenClaims> {
  const { issuer, internalUrl } = getConfig();
  const { clientId } = AUTH_APPS[app];
  return {
    id: clientId,
    name: AUTH_APPS[app].name,
    type: "oauth",
    issuer,
    clientId,
    clientSecret: builtinClientSecret(clientId),
    authorization: { url: `${issuer}/oauth/ae`, params: { scope: BUILTIN_SCOPES } },
    token: `${internalUrl}/oauth/te`,
    jwks_endpoint: `${internalUrl}/.well-known/jwks.json`,
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    // openid-client expects RS256 unless told; the service signs with ES256 only.
    client: { id_token_signed_response_alg: "ES256", token_endpoint_auth_method: "client_secret_basic" },
    httpOptions: { timeout: 10_000 },
    profile: (claims) => ({ id: claims.sub }),
  };
}

/**
 * One set of cookies per application, all scoped to the context path (the tRPC endpoint serves both
 * apps and must receive them). `__Host-` (next-auth's default for the CSRF cookie) demands path "/",
 * so `__Secure-` is used for all of them under https.
 */
function appCookies(app: TAuthApp, secure: boolean, path: string): Partial<CookiesOptions> {
  const prefix = `${secure ? "__Secure-" : ""}${AUTH_APPS[app].clientId}`;
  const options = { httpOnly: true, sameSite: "lax", path, secure };
  return {
    sessionToken: { name: `${prefix}.session-token`, options },
    callbackUrl: { name: `${prefix}.callback-url`, options },
    csrfToken: { name: `${prefix}.csrf-token`, options },
    pkceCodeVerifier: { name: `${prefix}.pkce`, options: { ...options, maxAge: 15 * 60 } },
    state: { name: `${prefix}.state`, options: { ...options, maxAge: 15 * 60 } },
    nonce: { name: `${prefix}.nonce`, options },
  };
}

/** Each app encrypts its sessions under its own key: a portal cookie renamed to the console's decrypts to nothing. */
export function appSessionSecret(app: TAuthApp): string {
  return createHmac("sha256", keyFor("session")).update(`next-auth:${app}`).digest("hex");
}

/**
 * Whether the IdP ended the sign-in behind an app's session since ("sign out everywhere", removal of
 * the device, a lock): the session cookie outlives those, the cutoffs (held in process) do not.
 */
export async function isCutOffSession(sub: string, session: Session): Promise<boolean> {
  return !!session.idp && isCutOff(sub, session.idp.sid, session.idp.iat);
}

/** `url` (absolute, or relative to `base`) when it is on `base`'s origin; otherwise `fallback`. */
export function sameOriginOr(url: string, base: string, fallback: string): string {
  try {
    const target = new URL(url, base);
    return target.origin === new URL(base).origin ? target.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** Console sessions are short: an administrator's cookie is the most valuable thing this server hands out. */
const CONSOLE_SESSION_MAX_AGE_S = 8 * 60 * 60;

export function sessionCookieName(app: TAuthApp): string {
  return appCookies(app, getConfig().issuer.startsWith("https://"), "/").sessionToken!.name;
}

function errorMessageOf(metadata: unknown): string | undefined {
  const e = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  return e instanceof Error ? e.message : undefined;
}

const cached = new Map<TAuthApp, AuthOptions>();

/**
 * The next-auth options of one application, built on first use rather than at import: `next build`
 * imports route modules, and reading the configuration or the data dir's key there would tie the
 * build to one environment.
 */
export function appAuthOptions(app: TAuthApp): AuthOptions {
  const known = cached.get(app);
  if (known) return known;
  const { issuer, contextPath, sessionTtl } = getConfig();
  // next-auth takes its own base path from NEXTAUTH_URL; under Next's basePath it is not "/api/auth".
  process.env.NEXTAUTH_URL ??= `${issuer}/api/auth`;
  const page = `${contextPath}${AUTH_APPS[app].signIn}`;
  const options: AuthOptions = {
    secret: appSessionSecret(app),
    session: { strategy: "jwt", maxAge: app === "console" ? CONSOLE_SESSION_MAX_AGE_S : sessionTtl },
    cookies: appCookies(app, issuer.startsWith("https://"), contextPath || "/"),
    // next-auth sends these as they are, outside Next's router, so they carry the context path.
    pages: { signIn: page, error: page },
    providers: [idpProvider(app)],
    callbacks: {
      // After the ID token was validated: the console admits administrators only, and says so.
      async signIn({ profile }) {
        return app === "console" ? admitToConsole(profile?.sub ?? "") : true;
      },
      jwt({ token, account, profile }) {
        if (account && profile) {
          const claims = profile as unknown as TIdTokenClaims;
          return { sub: claims.sub, idToken: account.id_token, sid: claims.sid, idTokenIat: claims.iat, authTime: claims.auth_time, amr: claims.amr };
        }
        return token;
      },
      // Where the browser goes after signing in: only a page of the service itself, whatever the
      // form's callbackUrl says; one that does not parse goes home instead of failing with a 500
      // (next-auth's own default parses it unguarded).
      redirect({ url }) {
        return sameOriginOr(url, issuer, `${issuer}${AUTH_APPS[app].home}`);
      },
      session({ session, token }) {
        return { expires: session.expires, user: { id: token.sub ?? "" }, idp: { sid: token.sid, iat: token.idTokenIat ?? 0, authTime: token.authTime, amr: token.amr } };
      },
    },
    logger: {
      // next-auth's own messages, as JSON lines like every other; its metadata may carry tokens, so only the code and message.
      error: (code, metadata) => log.warn("next-auth error", { app, code, message: errorMessageOf(metadata) }),
      warn: (code) => log.warn("next-auth warning", { app, code }),
      debug: () => {},
    },
  };
  cached.set(app, options);
  return options;
}
