import type { TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { changeConfirmingContacts, confirmContactChange, type TConfirmOutcome } from "../contacts/contact-change.service.ts";
import type { TConfirmationFailure, TContactKind } from "../contacts/contacts.schemas.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { assertOwnVersion, isContactDef, portalAttributes, readProfile, type TProfile } from "./profile.service.ts";

// A change of e-mail or phone in the portal is the contract's change with vrf=false: the new address
// gets a code and is stored only once the code comes back, through the services of
// PUT /api/v3/users and POST …/notes/validate_email|validate_mobile/{state}.

/** What a code, or a request for a new one, came to. The code itself is never part of it. */
export type TCodeOutcome =
  | { result: "confirmed" }
  | { result: "wrong_code"; attemptsLeft: number }
  | { result: "resent"; expiresIn: number; resendIn: number }
  | { result: "too_soon"; retryAfter: number }
  | { result: "failed"; cause: TConfirmationFailure["cause"] };

/** Sends a code to the new address; the profile then shows the change as waiting for it. */
export async function startContactChange(
  sub: string,
  input: { instanceId: string; attr: string; value: string; lang: TLocale },
  actor: TEventActor,
): Promise<TProfile> {
  assertOwnVersion(sub, input.instanceId);
  const { shown, editable } = await portalAttributes();
  const def = shown.find((d) => d.name === input.attr);
  if (!def || !isContactDef(def) || !editable.has(def.name)) {
    throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "this attribute cannot be changed here", pos: input.attr }] });
  }
  await changeConfirmingContacts(input.instanceId, { [def.name]: { value: input.value, vrf: false } }, {
    allowed: new Set([def.name]),
    expectSubject: sub,
    actor,
    locale: input.lang,
  });
  return readProfile(sub);
}

function outcomeOf(o: TConfirmOutcome): TCodeOutcome {
  switch (o.kind) {
    case "confirmed":
      return { result: "confirmed" };
    case "wrong_code":
      return { result: "wrong_code", attemptsLeft: o.pending.attempts_left };
    case "resent":
      return { result: "resent", expiresIn: o.pending.exp, resendIn: getConfig().codes.resendCooldown };
    case "failed":
      return { result: "failed", cause: o.failure.cause };
  }
}

type TCodeCall = { state: string; kind: TContactKind; lang: TLocale };

/** A confirmation of another account is contact.not_found, as if it did not exist. */
export async function confirmContactCode(sub: string, input: TCodeCall & { code: string }, actor: TEventActor): Promise<TCodeOutcome> {
  const request = { cmd: "code" as const, value: input.code };
  return outcomeOf(await confirmContactChange({ kind: input.kind, state: input.state, request, userId: sub, actor, locale: input.lang }));
}

/** A new code replaces the old one; within the cooldown the answer says how long to wait. */
export async function resendContactCode(sub: string, input: TCodeCall, actor: TEventActor): Promise<TCodeOutcome> {
  try {
    return outcomeOf(await confirmContactChange({ kind: input.kind, state: input.state, request: { cmd: "resend" }, userId: sub, actor, locale: input.lang }));
  } catch (e) {
    if (e instanceof AppError && e.code === "contact.resend_too_soon") return { result: "too_soon", retryAfter: Number(e.details.params?.retryAfter ?? 1) };
    throw e;
  }
}
