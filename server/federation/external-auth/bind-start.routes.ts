import { z } from "zod";
import { portalUserOf, readPortalSession } from "../../auth/portal-session.ts";
import { getConfig } from "../../config/config.ts";
import { AppError } from "../../errors/app-error.ts";
import { readCookie, serializeCookie } from "../../http/cookies.ts";
import { defineRoute } from "../../caller/define-route.ts";
import { readBodyText } from "../../http/parse.ts";
import { CSRF_COOKIE, csrfCookieFor, csrfField, csrfMatches } from "../../sign-in/csrf.ts";
import { forwardBind, gateBind } from "./bind-flow.service.ts";
import { confirmBindPage, otherUserPage } from "./bind-pages.ts";
import { externalAuthErrorPage } from "./pages.ts";
import { Answer, type TAnswer } from "../../http/exchange.ts";

const TAGS = ["External providers (v3)"];
const ZReq = z.string().max(128).describe("the handle from redirectTo");
const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };
const ZConfirmForm = z.object({ req: ZReq, csrf_token: z.string().max(128).optional().describe("from the confirmation page") });
const csrfBinding = (handle: string, sub: string) => `fa-bind:${handle}:${sub}`;

const redirect = (status: 302 | 303, location: string, cookie?: string) =>
  new Answer(status, { location, ...NO_STORE, ...(cookie ? { "set-cookie": cookie } : {}) });

/** Without the portal's session: its sign-in, which comes back to /fa/start. */
const toPortalSignIn = (status: 302 | 303, handle: string) => redirect(status, `${getConfig().issuer}/account/fa/continue?${new URLSearchParams({ req: handle })}`);

async function forward(status: 302 | 303, handle: string, sub: string): Promise<TAnswer> {
  const { redirectTo, cookie } = await forwardBind(handle, sub);
  return redirect(status, redirectTo, cookie);
}

// GET /fa/start?req=… – a binding continues in the user's browser
export const faStartRoute = defineRoute(
  {
    method: "GET",
    path: "/fa/start",
    summary: "Continue a binding in the user's browser",
    description:
      "Opened by the browser from a binding's redirectTo (v3, v2, the portal's Link). Without the account portal's session it sends the browser " +
      "to the portal, which shows the sign-in and then comes back. Signed in as another user than the one the binding is for: 403 page, nothing " +
      "happens. A binding an application asked for shows a page naming the application and the provider with a Link button (POST /fa/start); " +
      "the portal's own Link goes on at once. Going on means: the handle is used up, the browser gets a cookie on {base_url}/fa/callback that " +
      "the callback requires, and goes to the provider. An unknown, used or expired `req` is a page saying so.",
    tags: TAGS,
    auth: { kind: "none" },
    query: z.object({ req: ZReq }),
    response: { status: 302, description: "To the provider, or to the portal's sign-in" },
    otherResponses: [
      { status: 200, description: "The confirmation page of a binding an application asked for" },
      { status: 403, description: "The browser is signed in as another user than the binding is for" },
    ],
    errors: ["federation.auth_request_not_found", "federation.provider_not_found", "federation.provider_unavailable"],
    renderError: externalAuthErrorPage,
    nextRequestScope: true,
  },
  async ({ query, request }) => {
    const user = await portalUserOf(await readPortalSession());
    if (!user) return toPortalSignIn(302, query.req);
    const gate = await gateBind(query.req, user.sub);
    if (gate.kind === "other_user") return otherUserPage(request);
    if (gate.kind === "go") return forward(302, query.req, user.sub);
    const csrf = csrfCookieFor(readCookie(request, CSRF_COOKIE));
    const hidden = { req: query.req, csrf_token: csrfField(csrf.cookie, csrfBinding(query.req, user.sub)) };
    return confirmBindPage(request, { ...gate, action: `${getConfig().issuer}/fa/start`, hidden }, csrf.isNew ? { "set-cookie": serializeCookie(CSRF_COOKIE, csrf.cookie) } : {});
  },
);

// POST /fa/start – the person pressed Link on the confirmation page
export const faStartConfirmRoute = defineRoute(
  {
    method: "POST",
    path: "/fa/start",
    summary: "Confirm a binding an application asked for",
    description:
      "The confirmation page's form. Requires the account portal's session of the user the binding is for and the page's csrf_token (tied to " +
      "this browser, the handle and the user); then as GET /fa/start going on: the handle is used up and the browser goes to the provider.",
    tags: TAGS,
    auth: { kind: "none" },
    query: z.object({}),
    form: ZConfirmForm,
    response: { status: 303, description: "To the provider, or to the portal's sign-in" },
    otherResponses: [{ status: 403, description: "A csrf_token not of this browser, or the browser is signed in as another user" }],
    errors: ["federation.auth_request_not_found", "login.csrf_failed", "federation.provider_not_found", "federation.provider_unavailable"],
    renderError: externalAuthErrorPage,
    nextRequestScope: true,
  },
  async ({ request }) => {
    // The form is read here (defineRoute only documents it), within the request layer's body limit; a
    // malformed one is an unknown handle.
    const parsed = ZConfirmForm.safeParse(Object.fromEntries(new URLSearchParams(await readBodyText(request))));
    const body = parsed.success ? parsed.data : { req: "", csrf_token: undefined };
    const user = await portalUserOf(await readPortalSession());
    if (!user) return toPortalSignIn(303, body.req);
    const gate = await gateBind(body.req, user.sub);
    if (gate.kind === "other_user") return otherUserPage(request);
    if (!csrfMatches(readCookie(request, CSRF_COOKIE), csrfBinding(body.req, user.sub), body.csrf_token)) throw new AppError("login.csrf_failed");
    return forward(303, body.req, user.sub);
  },
);
