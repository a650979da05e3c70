import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { isOversizedBody } from "../http/browser-requests.ts";
import { notFoundRoutes } from "../http/fallback-routes.ts";
import { MAX_BODY_BYTES } from "../http/parse.ts";
import { responseOf } from "../http/next-transport.ts";
import { answerError } from "../http/respond.ts";
import { requestIdOf } from "../http/request-context.ts";
import { AppError } from "../errors/app-error.ts";
import { getConfig } from "../config/config.ts";
import { AUTH_APPS, appOfProvider, type TAuthApp } from "./apps.ts";
import { appAuthOptions } from "./auth-options.ts";
import { signOutOfApp } from "./sign-out.ts";

export type TAuthRouteContext = { params: Promise<{ nextauth: string[] }> };

const notFound = notFoundRoutes("v3").GET;
const tooLarge = (req: Request) =>
  responseOf(answerError(new AppError("request.too_large", { desc: `body exceeds ${MAX_BODY_BYTES} bytes or does not declare its size` }), "v3", requestIdOf(req)));

/**
 * /api/auth/{action}/{provider}: one next-auth endpoint serves two apps, told apart by the provider
 * id (= the built-in client id): `csrf/idp-portal`, `signin/idp-portal`, `callback/idp-console`
 * (next-auth's CSRF action takes no provider; here it names whose cookie and key to use). Sign-out is
 * the service's own (`signout/<client id>`, see sign-out.ts).
 * Nothing else of next-auth is used (its pages, `session`, `providers`), so nothing else answers.
 */
export async function handleAuthRequest(req: NextRequest, context: TAuthRouteContext): Promise<Response> {
  if (isOversizedBody(req)) return tooLarge(req);
  const [action, providerId, ...rest] = (await context.params).nextauth ?? [];
  const app = appOfProvider(providerId);
  if (rest.length) return notFound(req);
  if (!app) return notFound(req);
  if (action === "signout" && req.method === "POST") return signOutOfApp(app, req);
  const get = req.method === "GET";
  if ((action === "csrf" && get) || (action === "signin" && !get) || (action === "callback" && get)) {
    return toAppPages(app, await NextAuth(req, context, appAuthOptions(app)));
  }
  return notFound(req);
}

/**
 * next-auth sends failures to its own `…/api/auth/error?error=…` (or back to `…/signin`), which
 * cannot tell whose failure it is. They go straight to the app's sign-in page instead, which shows
 * the error in words. The sign-in POST answers the same URL as JSON (`{url}`) for the button.
 */
async function toAppPages(app: TAuthApp, res: Response): Promise<Response> {
  const { issuer } = getConfig();
  const own = `${issuer}/api/auth/`;
  const rewrite = (target: string): string => {
    if (!target.startsWith(`${own}error`) && !target.startsWith(`${own}signin`)) return target;
    const error = new URL(target).searchParams.get("error") ?? "Signin";
    return `${issuer}${AUTH_APPS[app].signIn}?error=${encodeURIComponent(error)}`;
  };
  const location = res.headers.get("location");
  if (location) {
    res.headers.set("location", rewrite(location));
    return res;
  }
  if (!res.headers.get("content-type")?.includes("application/json")) return res;
  const body = (await res.clone().json()) as { url?: unknown };
  if (typeof body.url !== "string" || rewrite(body.url) === body.url) return res;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, url: rewrite(body.url) }), { status: res.status, headers });
}
