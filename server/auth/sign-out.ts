import { decode } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "../config/config.ts";
import { AUTH_APPS, type TAuthApp } from "./apps.ts";
import { appSessionSecret, sessionCookieName } from "./auth-options.ts";

/**
 * Sign-out of console or portal: ends the app's own session (its cookie) and sends the browser to the
 * service's RP-initiated logout with the ID token as hint, which ends the sign-in session too, at once
 * and without asking, then returns to the app's sign-in page. Only a POST from the service's own
 * pages gets here with the session: the cookies are SameSite=Lax, so a form on another site posts
 * without them, and the logout then asks before ending anything.
 */
export async function signOutOfApp(app: TAuthApp, req: NextRequest): Promise<Response> {
  const { issuer, contextPath } = getConfig();
  const origin = req.headers.get("origin");
  if (origin && origin !== new URL(issuer).origin) return new Response("cross-origin sign-out refused", { status: 403 });
  const name = sessionCookieName(app);
  const token = await decode({ token: req.cookies.get(name)?.value, secret: appSessionSecret(app) }).catch(() => null);
  const logout = new URL(`${issuer}/oauth/logout`);
  if (token?.idToken) logout.searchParams.set("id_token_hint", token.idToken);
  logout.searchParams.set("client_id", AUTH_APPS[app].clientId);
  logout.searchParams.set("post_logout_redirect_uri", `${issuer}${AUTH_APPS[app].signIn}`);
  const res = NextResponse.redirect(logout, 303);
  res.headers.set("cache-control", "no-store");
  // next-auth splits a large session into name.0, name.1, …: every part goes.
  const secure = issuer.startsWith("https://");
  for (const c of req.cookies.getAll()) {
    if (c.name === name || c.name.startsWith(`${name}.`)) res.cookies.set(c.name, "", { path: contextPath || "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure });
  }
  return res;
}
