import { z } from "zod";
import { type TRouteHandler } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { localeOf } from "../http/locale.ts";
import { eventActorOf } from "../http/request-context.ts";
import { presentUserV3 } from "../users/user-attributes.service.ts";
import { ZUserV3 } from "../users/api/v3.ts";
import { confirmContactChange } from "./contact-change.service.ts";
import { CONTACT_ACTIONS, ZConfirmationFailure, ZConfirmRequest, ZPendingConfirmation, type TContactKind } from "./contacts.schemas.ts";
import { Answer } from "../http/exchange.ts";

const json = (status: number, body: unknown) => Answer.json(body, status, { "cache-control": "no-store" });

/** POST /api/v3/users/notes/validate_mobile|validate_email/{state}: the code of a pending contact change. */
export function confirmContactRoute(kind: TContactKind): TRouteHandler {
  const phone = kind === "phone";
  return defineRoute(
    {
      method: "POST",
      path: `/api/v3/users/notes/${CONTACT_ACTIONS[kind]}/{state}`,
      summary: phone ? "Confirm a phone change with the SMS code" : "Confirm an e-mail change with the e-mailed code",
      description:
        `{cmd:"code", value} submits the code: ${phone ? "204" : "200 with the updated account"} when right; 400 with the pending confirmation and ` +
        `msg=wrong_code when wrong; 410 with cause no_attempts_left or code_expired once it can no longer succeed. ` +
        `{cmd:"resend"} (an extension of the contract) sends a new code and answers 200 with the pending confirmation; the old code stops working; 429 within the cooldown.`,
      tags: ["Users (v3)"],
      auth: { kind: "bearer", user: ["idp_api_user_chg"], system: ["idp_api_sys_users_chg"] },
      params: z.object({ state: z.string().min(1).max(64) }),
      body: ZConfirmRequest,
      response: phone
        ? { status: 204, description: "Confirmed: the phone is changed and marked confirmed" }
        : { status: 200, description: "Confirmed: the account after the change", schema: ZUserV3 },
      otherResponses: [
        { status: 200, description: "resend: a new code was sent", schema: ZPendingConfirmation },
        { status: 400, description: "wrong code (msg=wrong_code, attempts_left decreased)", schema: ZPendingConfirmation },
        { status: 410, description: "the confirmation failed for good (no_attempts_left or code_expired)", schema: ZConfirmationFailure },
      ],
      errors: ["contact.not_found", "contact.resend_too_soon", "user.stale_instance"],
    },
    async ({ ctx, params, body, request }) => {
      const outcome = await confirmContactChange({
        kind,
        state: params.state,
        request: body,
        userId: ctx.actor.mode === "user" ? ctx.actor.userId : undefined,
        actor: eventActorOf(ctx),
        locale: localeOf(request),
      });
      switch (outcome.kind) {
        case "confirmed":
          return phone ? new Answer(204, { "cache-control": "no-store" }) : json(200, await presentUserV3(ctx, outcome.account));
        case "resent":
          return json(200, outcome.pending);
        case "wrong_code":
          return json(400, outcome.pending);
        case "failed":
          return json(410, outcome.failure);
      }
    },
  );
}
