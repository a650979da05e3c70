import { nextPage } from "../http/next-transport.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { pageRun } from "../http/request-core.ts";
import { asAppError } from "../http/respond.ts";
import { errorView } from "./error-view.ts";
import { htmlResponse } from "./layout.ts";
import { pageBrandReady } from "./page-brand.ts";
import { errorText, kitText, pickLang } from "./texts.ts";
import { Answer, type TAnswer, type TIncoming } from "../http/exchange.ts";

/** An error as a page in the visitor's language (asAppError logs what is a bug). */
export function errorPage(req: TIncoming, e: unknown, requestId: string): TAnswer {
  const error = asAppError(e, requestId);
  const lang = pickLang(req);
  const hint = error.code.startsWith("login.") || error.code.startsWith("authorize.") || error.code.startsWith("saml.") ? kitText(lang, "error.back") : undefined;
  const title = error.code.startsWith("signup.") ? kitText(lang, "error.signupTitle") : undefined;
  return htmlResponse(errorView({ lang, message: errorText(lang, error.code, requestId), hint, title }), error.status, error.details.headers);
}

/** A page's Next route handler, with where it is served and its core run for the node:http transport. */
export type TPageRoute = ((req: Request) => Promise<Response>) & { page: { method: "GET" | "POST"; path: string }; run: (req: TIncoming) => Promise<TAnswer> };

/**
 * A browser page (sign-in, consent): HTML, not an API operation. The request core runs it
 * (request-core.ts pageRun): errors become a page, and the request gets its log line like every other.
 * `path` is the app/ folder whose route file exports it (below the context path): the production
 * server serves the page through the same run without Next (server/api/publish.ts).
 */
export function pageRoute(method: "GET" | "POST", path: string, handler: (req: TIncoming, ctx: TRequestContext) => Promise<TAnswer>): TPageRoute {
  // A brand changed by another process (or dropped by its backstop) is read again before the page is drawn.
  const run = pageRun(async (req, ctx) => {
    await pageBrandReady();
    return handler(req, ctx);
  }, errorPage);
  return Object.assign(nextPage(run), { page: { method, path }, run });
}

/** 303: after a form POST the browser follows with a GET (RFC 9110 §15.4.4). */
export function seeOther(location: string, cookies: string[] = []): Answer {
  return Answer.redirect(303, location, cookies.length ? { "set-cookie": cookies } : {});
}
