import type { TAttributeScope } from "../attributes/attributes.schemas.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { selectionFor } from "../attributes/selections.service.ts";
import { changeConfirmingContacts, notesOf, waitingChanges } from "../contacts/contact-change.service.ts";
import type { TConfirmationRow } from "../contacts/confirmations.repository.ts";
import { AppError } from "../errors/app-error.ts";
import { CURRENT_SUBJECT } from "../http/authenticate.ts";
import type { TLocale } from "../http/locale.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import type { TAccount } from "./account.ts";
import { toUserV3, type TSelectionPair, type TUserV3 } from "./api/v3.ts";
import { accountSnapshot } from "./account-snapshots.ts";
import { deleteAccount } from "./users.service.ts";

const SCOPES: Record<"user" | "system", { read: TAttributeScope; change: TAttributeScope }> = {
  user: { read: "idp_api_user", change: "idp_api_user_chg" },
  system: { read: "idp_api_sys_users", change: "idp_api_sys_users_chg" },
};

type TBearerActor = Extract<TRequestContext["actor"], { mode: "user" | "system" }>;

function bearerActor(ctx: TRequestContext): TBearerActor {
  if (ctx.actor.mode !== "user" && ctx.actor.mode !== "system") throw new AppError("auth.token_missing");
  return ctx.actor;
}

/** The client's attribute selections for the token's mode. */
async function selectionsOf(actor: TBearerActor): Promise<TSelectionPair> {
  const scopes = SCOPES[actor.mode];
  // One after the other: both come from the client's one cache entry, which the first call fills.
  const read = await selectionFor(actor.clientId, scopes.read);
  return { read, change: await selectionFor(actor.clientId, scopes.change) };
}

/** `current` is the token's own user; a system token has none. */
function resolveSubject(actor: TBearerActor, subjectId: string): string {
  if (subjectId !== CURRENT_SUBJECT) return subjectId;
  if (actor.mode === "user") return actor.userId;
  throw new AppError("user.not_found", { desc: "a system token has no current user", params: { userId: subjectId } });
}

async function present(account: TAccount, sel: TSelectionPair, waiting?: TConfirmationRow[]): Promise<TUserV3> {
  const catalog = await getCatalog();
  return toUserV3(account, catalog, sel, notesOf(waiting ?? (await waitingChanges(account.id))));
}

export async function getUserV3(ctx: TRequestContext, subjectId: string): Promise<TUserV3> {
  const actor = bearerActor(ctx);
  const sub = resolveSubject(actor, subjectId);
  const [snap, sel] = await Promise.all([accountSnapshot(sub), selectionsOf(actor)]);
  if (!snap) throw new AppError("user.not_found", { params: { userId: sub } });
  return present(snap.account, sel, snap.waiting);
}

export async function changeUserV3(ctx: TRequestContext, instanceId: string, body: Record<string, unknown>, locale: TLocale): Promise<TUserV3> {
  const actor = bearerActor(ctx);
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

/** The account as this caller may see it (after a confirmation changed it). */
export async function presentUserV3(ctx: TRequestContext, account: TAccount): Promise<TUserV3> {
  return present(account, await selectionsOf(bearerActor(ctx)));
}
