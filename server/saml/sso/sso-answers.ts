import { readCookie, serializeCookie } from "../../http/cookies.ts";
import { Answer, type TAnswer, type TIncoming } from "../../http/exchange.ts";
import { pickLang } from "../../html/texts.ts";
import { SESSION_COOKIE } from "../../sessions/sessions.service.ts";
import { CSRF_COOKIE } from "../../sign-in/csrf.ts";
import type { TBrowser, TSsoOutcome } from "./sso.service.ts";

// What the SSO endpoint and its pages read of a browser, and how an outcome becomes the answer to it.

export const browserOf = (request: TIncoming): TBrowser => ({ sessionToken: readCookie(request, SESSION_COOKIE), csrfCookie: readCookie(request, CSRF_COOKIE), lang: pickLang(request) });

export function toAnswer(outcome: TSsoOutcome, redirectStatus: 302 | 303): TAnswer {
  if ("answer" in outcome) return outcome.answer;
  return Answer.redirect(redirectStatus, outcome.location, outcome.newCsrfCookie ? { "set-cookie": serializeCookie(CSRF_COOKIE, outcome.newCsrfCookie) } : {});
}
