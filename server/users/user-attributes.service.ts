import { CONTACT_TYPES, type TAttributeScope } from "../attributes/attributes.schemas.ts";
import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { getCatalog, type TCatalog } from "../attributes/attributes.service.ts";
import { clientSelections, type TSelections } from "../attributes/selections.service.ts";
import { derivedOnce, derivedOncePer } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { changeConfirmingContacts, notesOf, waitingChanges } from "../contacts/contact-change.service.ts";
import type { TConfirmationRow } from "../contacts/confirmation-row.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import type { TAccount } from "./account.ts";
import { toUserV3, type TSelectionPair, type TUserV3 } from "./api/v3.ts";
import { accountSnapshot, type TSnapshot } from "./account-snapshots.ts";
import { deleteAccount } from "./users.service.ts";
import { serializedOnce, type JsonText } from "../http/json-text.ts";

const SCOPES: Record<"user" | "system", { read: TAttributeScope; change: TAttributeScope }> = {
  user: { read: "idp_api_user", change: "idp_api_user_chg" },
  system: { read: "idp_api_sys_users", change: "idp_api_sys_users_chg" },
};

type TBearerActor = Extract<TRequestContext["actor"], { mode: "user" | "system" }>;

function bearerActor(ctx: TRequestContext): TBearerActor {
  if (ctx.actor.mode !== "user" && ctx.actor.mode !== "system") throw new AppError("auth.token_missing");
  return ctx.actor;
}

/** The client's attribute selections for the token's mode; without a Promise when cached. */
function selectionsOf(actor: TBearerActor): TMaybePromise<TSelectionPair> {
  return andThen(clientSelections(actor.clientId), (all) => pairsOf(all)[actor.mode]);
}

// Made once per cached selections, so that a pair stays the same object for the answers derived from it.
const pairsOf = derivedOnce((all: TSelections): Record<"user" | "system", TSelectionPair> => {
  const pair = (scopes: { read: TAttributeScope; change: TAttributeScope }) => ({ read: all.get(scopes.read) ?? null, change: all.get(scopes.change) ?? null });
  return { user: pair(SCOPES.user), system: pair(SCOPES.system) };
});

async function present(account: TAccount, sel: TSelectionPair, waiting?: TConfirmationRow[]): Promise<TUserV3> {
  const catalog = await getCatalog();
  return toUserV3(account, catalog, sel, notesOf(waiting ?? (await waitingChanges(account.id))));
}

/**
 * The account as this caller may see it. Served from memory without a Promise when the account, the
 * client's selections and the catalog are cached (cache/maybe-promise.ts), as a hot read is.
 */
/** The account's attributes as the v3 API answers them, serialized once per shared answer. */
export function userV3Answer(ctx: TRequestContext, subjectId: string): TMaybePromise<JsonText> {
  return andThen(getUserV3(ctx, subjectId), serializedOnce);
}

export function getUserV3(ctx: TRequestContext, subjectId: string): TMaybePromise<TUserV3> {
  const actor = bearerActor(ctx);
  return andThen(accountSnapshot(subjectId), (snap) => {
    if (!snap) throw new AppError("user.not_found", { params: { userId: subjectId } });
    return andThen(selectionsOf(actor), (sel) => andThen(getCatalog(), (catalog) => answerOf(snap, sel, catalog)));
  });
}

type TFoundSnapshot = Exclude<TSnapshot, null>;

function answerOf(snap: TFoundSnapshot, sel: TSelectionPair, catalog: TCatalog): TUserV3 {
  // Pending contact changes expire with the clock, so such an answer is made for each request.
  if (snap.waiting.length) return toUserV3(snap.account, catalog, sel, notesOf(snap.waiting));
  return answerWithoutNotes(snap, viewOf(sel, catalog));
}

// The answer made once per cached account and view (selections and catalog as one object): each
// of them is replaced, never changed in place, when it changes (derived-once.ts). Shared by every
// request until then, so it is frozen; the route serializes it once too.
const viewOf = derivedOncePer((sel: TSelectionPair, catalog: TCatalog) => ({ sel, catalog }));
const answerWithoutNotes = derivedOncePer((snap: TFoundSnapshot, view: { sel: TSelectionPair; catalog: TCatalog }) =>
  Object.freeze(toUserV3(snap.account, view.catalog, view.sel, [])),
);

export async function changeUserV3(ctx: TRequestContext, instanceId: string, body: Record<string, unknown>, locale: TLocale): Promise<TUserV3> {
  const actor = bearerActor(ctx);
  // A new e-mail or phone is where password resets and codes go: in user mode, a factor change.
  if (actor.mode === "user" && (await touchesContacts(body))) await requireRecentAuth(ctx);
  const sel = await selectionsOf(actor);
  const { account } = await changeConfirmingContacts(instanceId, body, {
    allowed: sel.change,
    expectSubject: actor.mode === "user" ? actor.userId : undefined,
    actor: eventActorOf(ctx),
    locale,
  });
  return present(account, sel);
}

export async function deleteUserV3(ctx: TRequestContext, instanceId: string): Promise<void> {
  const actor = bearerActor(ctx);
  await deleteAccount(instanceId, { expectSubject: actor.mode === "user" ? actor.userId : undefined, actor: eventActorOf(ctx) });
}

async function touchesContacts(body: Record<string, unknown>): Promise<boolean> {
  const catalog = await getCatalog();
  return Object.keys(body).some((name) => CONTACT_TYPES.includes(catalog.byName.get(name)?.type ?? "string"));
}

/** The account as this caller may see it (after a confirmation changed it). */
export async function presentUserV3(ctx: TRequestContext, account: TAccount): Promise<TUserV3> {
  return present(account, await selectionsOf(bearerActor(ctx)));
}
