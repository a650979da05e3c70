import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { queryParam, type TIncoming } from "../http/exchange.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { csrfFieldOf } from "./login-flows.service.ts";
import { loadSignUpFlow, type TSignUpFlow } from "./signup.service.ts";

// What every sign-up page checks of its request: that sign-up is on, and which sign-up it is
// about, in the browser that started it (the code pages and the passkey step share these).

export function requireSelfSignUp(): void {
  if (!getConfig().selfSignUp) throw new AppError("signup.disabled");
}

/** The sign-up of a code (or passkey) page, in the browser that started it, with the page's CSRF field. */
export async function signUpFlowOf(req: TIncoming): Promise<{ flow: TSignUpFlow; csrf: string }> {
  requireSelfSignUp();
  const flow = await loadSignUpFlow(queryParam(req, "signup"));
  const csrf = csrfFieldOf(flow, readCookie(req, CSRF_COOKIE));
  if (!csrf) throw new AppError("login.csrf_failed");
  return { flow, csrf };
}
