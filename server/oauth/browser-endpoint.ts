import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import type { TIncoming, TAnswer } from "../http/exchange.ts";
import type { TOperation, TRouteHandler } from "../http/define-route.ts";
import { errorPage } from "../html/page-route.ts";
import { pageBrandReady } from "../html/page-brand.ts";

type TBrowserEndpoint = Pick<TOperation, "path" | "summary" | "description" | "otherResponses"> & {
  /** The API document's section: OAuth 2.0 unless said. */
  tags?: string[];
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
        tags: spec.tags ?? ["OAuth 2.0"],
        auth: { kind: "none" },
        ...(method === "GET" ? { query: spec.params } : { query: z.object({}), form: spec.params }),
        response: { status: method === "GET" ? 302 : 303, description: spec.redirect },
        otherResponses: spec.otherResponses,
        errors: [],
        renderError: errorPage,
      },
      // Its pages (the logout confirmation) are drawn in the stored brand, as every page route's.
      async ({ request }) => {
        await pageBrandReady();
        return handler(request, method === "GET" ? 302 : 303);
      },
    );
  return [route("GET"), route("POST")];
}
