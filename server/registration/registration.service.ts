import { randomUUID } from "node:crypto";
import { recordEvents, type TEventActor, type TPendingEvent } from "../audit/audit.service.ts";
import type { TAttrValue } from "../attributes/attribute-values.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { newState } from "../contacts/codes.ts";
import { openConfirmation } from "../contacts/open-confirmation.ts";
import { getConfig } from "../config/config.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { checkPassword, violationItem } from "../passwords/policy.ts";
import { getPasswordPolicy } from "../passwords/policy-store.ts";
import type { TAccount } from "../users/account.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { applyPlan, indexRows, planChanges, type TPendingContact } from "../users/account-changes.ts";
import { checkUnique, createAccount } from "../users/users.service.ts";
import { bindAtRegistration, refusedBindings } from "../dyn-clients/dyn-clients.service.ts";
import { instructionsFor } from "./instructions.ts";
import { asRegistrationError } from "./registration-errors.ts";
import { registrationText } from "./messages.ts";
import { insertRegistration } from "./registration.repository.ts";
import type { TRegistrationResponse } from "./registration.schemas.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredRegistrations } from "./registration.repository.ts";

const PURPOSE = "registration";
// A registration nobody finishes is forgotten after a day; each resend moves this on.
export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

export type TRegisterInput = {
  attrs: Record<string, unknown>;
  password?: string;
  dynClientIds: string[];
  /** v3 spells the contact flag `verified`; v1 sends bare strings (unverified). */
  contactFlag: "verified" | "bare";
  /** v1 always creates the account at once; v3 follows IDP_REGISTRATION_MODE. */
  mode: "confirm-first" | "create-first";
  clientId: string;
  locale: TLocale;
  actor: TEventActor;
};

/**
 * bindDynClient: each id must be a free instance that dynamic registration issued under the calling
 * client (an application binds only its own installations). Checked before anything is written.
 */
async function checkActions(ids: string[], clientId: string, locale: TLocale): Promise<void> {
  const refused = await refusedBindings(ids, clientId);
  if (refused.length === 0) return;
  throw new AppError("registration.unknown_dyn_client", {
    items: refused.map((r) => ({
      error: "unknown_dyn_client",
      desc: registrationText(r.reason === "unknown" ? "unknown_dyn_client" : "bound_dyn_client", locale, r.id),
      pos: `actions[${r.index}].client_id`,
    })),
  });
}

async function checkPolicy(password: string | undefined, locale: TLocale): Promise<void> {
  if (password === undefined) return;
  // A new account has no second factor yet: the longer minimum applies.
  const violations = checkPassword(password, await getPasswordPolicy(), { secondFactor: false });
  if (violations.length) {
    throw new AppError("registration.password_policy", { items: violations.map((v) => violationItem(v, locale)) });
  }
}

/** Opens a confirmation for each contact that waits for a code and queues the code, in `tx`. */
async function openRegistrationCodes(tx: TTx, context: string, pending: TPendingContact[], locale: TLocale, userId?: string): Promise<void> {
  for (const p of pending) {
    await openConfirmation(tx, { purpose: PURPOSE, userId: userId ?? null, registrationId: context, attr: p.attr, kind: p.type, value: p.value, oldValue: null }, locale);
  }
}

/** Each instance bindDynClient bound to the new account is a security event of that account. */
export function bindingEvents(ids: string[], subject: string | undefined, actor: TEventActor): TPendingEvent[] {
  return ids.map((instance) => ({ type: "client.instance_bound", actor: { ...actor, subject }, params: { instance, via: "registration" } }));
}

export function createdResponse(account: TAccount, context = "", instructions: TRegistrationResponse["instructions"] = []): TRegistrationResponse {
  return { instanceId: account.instanceId, subject: account.id, context, cookies: [], instructions };
}

/**
 * PUT /reg/api/v3/users and v1: verified contacts only → the account at once; unverified contacts →
 * codes sent, and the account either waits for them (confirm-first) or is created with the contacts
 * unconfirmed (create-first).
 */
export async function register(input: TRegisterInput): Promise<TRegistrationResponse> {
  await checkActions(input.dynClientIds, input.clientId, input.locale);
  await checkPolicy(input.password, input.locale);
  const catalog = await getCatalog();
  const { plan, items } = planChanges(catalog, { ...input.attrs, sub: input.attrs.sub ?? randomUUID() }, { contactFlag: input.contactFlag, confirmUnverified: true, allowed: null, creating: true });
  if (items.length) throw asRegistrationError(new AppError("request.invalid_values", { items }), input.locale);
  const sub = plan.set.get("sub") as string;
  const unconfirmed = Object.fromEntries(plan.pending.map((p) => [p.attr, { value: p.value, vrf: false }]));
  const attrs: Record<string, TAttrValue> = { ...applyPlan({}, plan), ...unconfirmed };
  await checkUnique(indexRows(catalog, attrs), [], undefined).catch((e) => Promise.reject(asRegistrationError(e, input.locale)));
  const passwordHash = input.password === undefined ? null : await hashSecret(input.password);
  const context = plan.pending.length ? newState() : "";
  const { ttl, attempts } = getConfig().codes;
  const response = await inTransaction(async (tx) => {
    const { answer, bound } = await registerIn(tx);
    // The account (or the registration) and its events commit together: a retry after a failure
    // never finds an account without its user.registered.
    const events = [{ type: answer.subject ? "user.registered" : "registration.started", actor: { ...input.actor, subject: answer.subject }, params: { pendingContacts: plan.pending.map((p) => p.attr) } }];
    await recordEvents([...events, ...bindingEvents(bound, answer.subject, input.actor)], tx);
    return answer;
  });
  kickDelivery();
  if (response.subject) await publishAccountChange(response.subject);
  return response;

  async function registerIn(tx: TTx): Promise<{ answer: TRegistrationResponse; bound: string[] }> {
    const createNow = !plan.pending.length || input.mode === "create-first";
    const account: TAccount | undefined = createNow
      ? await createAccount({ sub, attrs: { ...attrs }, passwordHash }, { contactFlag: "vrf", allowed: null }, tx).catch((e) =>
          Promise.reject(asRegistrationError(e, input.locale)),
        )
      : undefined;
    const bound = account ? await bindAtRegistration(input.dynClientIds, account.id, tx) : [];
    if (account && !plan.pending.length) return { answer: createdResponse(account), bound };
    const expiresAt = new Date(Date.now() + REGISTRATION_TTL_MS);
    // Without an account yet, the instances wait with the registration and are bound when it is created.
    const dynClientIds = account ? [] : input.dynClientIds;
    await insertRegistration({ context, attrs, sub, passwordHash, clientId: input.clientId, locale: input.locale, userId: account?.id ?? null, dynClientIds, expiresAt }, tx);
    await openRegistrationCodes(tx, context, plan.pending, input.locale, account?.id);
    const now = Date.now();
    const waiting = plan.pending.map((p) => ({ kind: p.type, value: p.value, status: "code_waiting", attemptsLeft: attempts, expiresAt: new Date(now + ttl * 1000) }));
    const instructions = instructionsFor(waiting, attempts, now);
    return { answer: account ? createdResponse(account, context, instructions) : { context, instructions }, bound };
  }
}
