import { z } from "zod";
import { defineRoute, type TOperation, type TRouteHandler } from "../http/define-route.ts";
import { nextPage } from "../http/next-transport.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { pageRun } from "../http/request-core.ts";
import { asAppError } from "../http/respond.ts";
import { errorView } from "./error-view.ts";
import { htmlResponse } from "./layout.ts";
import { errorText, kitText, pickLang } from "./texts.ts";
import { Answer, type TAnswer, type TIncoming } from "../http/exchange.ts";

/** An error as a page in the visitor's language (asAppError logs what is a bug). */
export function errorPage(req: TIncoming, e: unknown, requestId: string): TAnswer {
  const error = asAppError(e, requestId);
  const lang = pickLang(req);
  const hint = error.code.startsWith("login.") || error.code.startsWith("authorize.") ? kitText(lang, "error.back") : undefined;
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
  const run = pageRun(handler, errorPage);
  return Object.assign(nextPage(run), { page: { method, path }, run });
}

/** 303: after a form POST the browser follows with a GET (RFC 9110 §15.4.4). */
export function seeOther(location: string, cookies: string[] = []): Answer {
  return Answer.redirect(303, location, cookies.length ? { "set-cookie": cookies } : {});
}

type TBrowserEndpoint = Pick<TOperation, "path" | "summary" | "description" | "otherResponses"> & {
  /** The parameters, documented for the query of a GET and the form body of a POST alike. */
  params: z.ZodType;
  redirect: string;
};

/**
 * A protocol endpoint a browser is sent to (authorization, logout) as its GET and POST operations:
 * parameters in the query or the form body, a redirect when done (302 after a GET, 303 after a
 * POST), and failures shown as a page.
 */
export function browserEndpoint(spec: TBrowserEndpoint, handler: (request: TIncoming, redirectStatus: 302 | 303) => Promise<TAnswer>): [TRouteHandler, TRouteHandler] {
  const route = (method: "GET" | "POST") =>
    defineRoute(
      {
        method,
        path: spec.path,
        summary: spec.summary,
        description: spec.description,
        tags: ["OAuth 2.0"],
        auth: { kind: "none" },
        ...(method === "GET" ? { query: spec.params } : { query: z.object({}), form: spec.params }),
        response: { status: method === "GET" ? 302 : 303, description: spec.redirect },
        otherResponses: spec.otherResponses,
        errors: [],
        renderError: errorPage,
      },
      ({ request }) => handler(request, method === "GET" ? 302 : 303),
    );
  return [route("GET"), route("POST")];
}
