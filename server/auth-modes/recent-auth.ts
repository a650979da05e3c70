import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { readAuthModes } from "./auth-modes.service.ts";

/** What a step-up refusal answers, for the API document of each operation that asks for one. */
export const STEP_UP_ERRORS = ["auth.reauth_required", "auth.second_factor_required"] as const;


/**
 * A change of the account's factors through the REST API in user mode (second factor, generators,
 * security question, external accounts) needs what the portal asks for the same change: a sign-in no
 * older than IDP_REAUTH_MAX_AGE, with the second factor when it is on. Whoever holds a long-lived or
 * stolen token cannot otherwise swap the factors and keep the account. The token says when and how the
 * person signed in (auth_time, amr); a token without them is too old. System mode: the application
 * vouches for its own calls.
 */
export async function requireRecentAuth(ctx: TRequestContext, now = Date.now()): Promise<void> {
  const actor = ctx.actor;
  if (actor.mode !== "user") return;
  if (actor.authTime === undefined || now / 1000 - actor.authTime > getConfig().reauthMaxAge) {
    throw new AppError("auth.reauth_required", { params: { maxAge: getConfig().reauthMaxAge } });
  }
  // A QR sign-in carries the methods of the session that confirmed it, "otp" among them only if that one passed it;
  // a passkey with user verification passed both factors at once ("mfa").
  if ((await readAuthModes(actor.userId)).secondFactor && !actor.amr?.includes("otp") && !actor.amr?.includes("mfa")) {
    throw new AppError("auth.second_factor_required");
  }
}

