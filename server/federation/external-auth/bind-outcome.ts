import { AppError } from "../../errors/app-error.ts";
import { providerLabel } from "../providers.service.ts";
import type { TPendingExternalAuth } from "./external-auth.types.ts";
import { popupOutcomePage } from "./pages.ts";
import { Answer, type TAnswer, type TIncoming } from "../../http/exchange.ts";

/**
 * What the application's callback receives after a binding through the provider, as query parameters:
 * `result=bound&fp=<fpType>:<fpName>&sid=<sid>`, or `result=error&fp=…&error=<code>&error_description=<text>`
 * where code is the v3 error name: fa_bound_to_other_user, fp_refused, fp_unavailable, unknown_fp.
 */
export type TBindOutcome = { result: "bound"; sid: string } | { result: "error"; error: string; error_description: string };

export function errorOutcome(e: AppError): TBindOutcome {
  return { result: "error", error: e.def.error, error_description: e.details.desc ?? e.def.desc };
}

/** The callback URL with the outcome added to whatever query it had. */
export function outcomeUrl(returnTo: string, pending: Pick<TPendingExternalAuth, "provider">, outcome: TBindOutcome): string {
  const url = new URL(returnTo);
  const params: Record<string, string> = { fp: providerLabel(pending.provider), ...outcome };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Sends the browser to the application with the outcome (a popup hands it to its opener). */
export function respondWithOutcome(req: TIncoming, pending: TPendingExternalAuth, outcome: TBindOutcome): TAnswer {
  if (!pending.returnTo) {
    if (outcome.result === "bound") return new Answer(204);
    throw new AppError("federation.provider_refused", { desc: outcome.error_description });
  }
  const url = outcomeUrl(pending.returnTo, pending, outcome);
  if (pending.isPopup) return popupOutcomePage(req, url, { fp: providerLabel(pending.provider), ...outcome });
  return Answer.redirect(302, url, { "referrer-policy": "no-referrer" });
}
