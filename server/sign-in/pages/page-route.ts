import { z } from "zod";
import { defineRoute, type TOperation, type TRouteHandler } from "../../http/define-route.ts";
import { asAppError, finish } from "../../http/respond.ts";
import { requestIdOf, type TRequestContext } from "../../http/request-context.ts";
import { errorText, pickLang, textsFor } from "./i18n.ts";
import { htmlResponse } from "./layout.ts";
import { errorView } from "./views.ts";

/** An error as a page in the visitor's language (asAppError logs what is a bug). */
export function errorPage(req: Request, e: unknown, requestId: string): Response {
  const error = asAppError(e, requestId);
  const lang = pickLang(req);
  const t = textsFor(lang);
  const hint = error.code.startsWith("login.") || error.code.startsWith("authorize.") ? t("error.back") : undefined;
  const title = error.code.startsWith("signup.") ? t("error.signupTitle") : undefined;
  return htmlResponse(errorView({ lang, t, message: errorText(t, error.code, requestId), hint, title }), error.status, error.details.headers);
}

/**
 * A browser page (sign-in, consent, logout): HTML, not an API operation. Errors become a page, and
 * the request gets its log line like every other.
 */
export function pageRoute(handler: (req: Request, ctx: TRequestContext) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    const started = performance.now();
    const ctx: TRequestContext = { requestId: requestIdOf(req), actor: { mode: "anonymous" } };
    let res: Response;
    try {
      res = await handler(req, ctx);
    } catch (e) {
      res = errorPage(req, e, ctx.requestId);
    }
    return finish(res, req, ctx, undefined, started);
  };
}

/** 303: after a form POST the browser follows with a GET (RFC 9110 §15.4.4). */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
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
export function browserEndpoint(spec: TBrowserEndpoint, handler: (request: Request, redirectStatus: 302 | 303) => Promise<Response>): [TRouteHandler, TRouteHandler] {
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
