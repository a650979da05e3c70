import type { AuthOptions, CookiesOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getConfig } from "../config/config.ts";
import { keyFor } from "../crypto/keys.ts";
import { verifyAdminCredentials } from "../users/admin.service.ts";

declare module "next-auth" {
  interface User {
    login: string;
    roles: string[];
  }
  interface Session {
    user: { id: string; login?: string; roles?: string[] };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    login?: string;
    roles?: string[];
  }
}

/** Console sessions are short: an administrator's cookie is the most valuable thing this server hands out. */
const SESSION_MAX_AGE_S = 8 * 60 * 60;

// Longer inputs cannot be valid and would only make the password hash do needless work.
const MAX_LOGIN = 200;
const MAX_PASSWORD = 1024;

/**
 * Cookies scoped to the context path, so applications sharing the host under other paths never
 * receive the console session. `__Host-` (next-auth's default for the CSRF cookie) demands path "/",
 * so `__Secure-` is used for all three instead.
 */
function consoleCookies(secure: boolean, path: string): Partial<CookiesOptions> {
  const prefix = secure ? "__Secure-" : "";
  const options = { httpOnly: true, sameSite: "lax", path, secure };
  return {
    sessionToken: { name: `${prefix}next-auth.session-token`, options },
    callbackUrl: { name: `${prefix}next-auth.callback-url`, options },
    csrfToken: { name: `${prefix}next-auth.csrf-token`, options },
  };
}

function firstForwardedFor(value: unknown): string | undefined {
  const first = typeof value === "string" ? value.split(",")[0]?.trim() : undefined;
  return first ? first.slice(0, 64) : undefined;
}

let cached: AuthOptions | undefined;

/**
 * Built on first use rather than at import: `next build` imports route modules, and reading the
 * configuration or the data dir's key there would tie the build to one environment.
 */
export function getAuthOptions(): AuthOptions {
  if (cached) return cached;
  const { issuer, contextPath } = getConfig();
  // next-auth takes its own base path from NEXTAUTH_URL; under Next's basePath it is not "/api/auth".
  process.env.NEXTAUTH_URL ??= `${issuer}/api/auth`;
  cached = {
    secret: keyFor("session").toString("hex"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    cookies: consoleCookies(issuer.startsWith("https://"), contextPath || "/"),
    // next-auth sends these as they are, outside Next's router, so they carry the context path.
    pages: { signIn: `${contextPath}/console/sign-in`, error: `${contextPath}/console/sign-in` },
    providers: [
      CredentialsProvider({
        name: "credentials",
        credentials: { login: { type: "text" }, password: { type: "password" } },
        async authorize(credentials, req) {
          const login = credentials?.login ?? "";
          const password = credentials?.password ?? "";
          if (!login || !password || login.length > MAX_LOGIN || password.length > MAX_PASSWORD) return null;
          return verifyAdminCredentials(login, password, firstForwardedFor(req.headers?.["x-forwarded-for"]));
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.login = user.login;
          token.roles = user.roles;
        }
        return token;
      },
      session({ session, token }) {
        session.user = { id: token.sub ?? "", login: token.login ?? "", roles: token.roles ?? [] };
        return session;
      },
    },
  };
  return cached;
}
