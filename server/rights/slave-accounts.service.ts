import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { AppError } from "../errors/app-error.ts";
import { asValidationError } from "../http/v2-errors.ts";
import type { TLocale } from "../http/locale.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { changePassword } from "../passwords/password-change.service.ts";
import { findAccount } from "../users/users.service.ts";
import { changeRightsTogether, type TRightsChange } from "./grants.service.ts";
import { definitionsByName } from "./definitions.service.ts";
import { holdsRight } from "./listings.service.ts";
import { assertExists } from "./parties.ts";
import type { TSlaveRightsChange } from "./rights.schemas.ts";

/**
 * POST /api/v2/users/rights/change. A user token acts only as itself (every subject is the token's
 * user) and only re-tags rights it holds (refuseNewRights); a system token (idp_rm_rights) only
 * revokes, for any users. Deletes run before updates, all in
 * one transaction: any bad record changes nothing.
 */
export async function changeSlaveRights(ctx: TRequestContext, body: TSlaveRightsChange): Promise<void> {
  const { actor } = ctx;
  if (actor.mode === "system" && body.update.length) throw new AppError("rights.access_denied", { desc: "a system token may only revoke (delete)" });
  if (actor.mode === "user") {
    const other = [...body.delete, ...body.update].find((r) => r.subject !== actor.userId);
    if (other) throw new AppError("rights.access_denied", { desc: "every subject must be the token's user", params: { subject: other.subject } });
    await refuseNewRights(actor.userId, body.update);
  }
  const changes: (TRightsChange & { pos: string })[] = [
    ...body.delete.map((record, i) => ({ change: "revoked" as const, record, pos: `delete[${i}]` })),
    ...body.update.map((record, i) => ({ change: "granted" as const, record, pos: `update[${i}]` })),
  ];
  await changeRightsTogether(changes, eventActorOf(ctx), (e, i) => asValidationError(e, changes[i]!.pos));
}

/**
 * A user token may add tags to rights its user already holds, never give itself a new one: otherwise
 * any user could take change_password on any account and then set that account's password. New
 * master/slave rights come from an administrator (PUT /api/v3/rights, idp_rights_full_access).
 */
async function refuseNewRights(master: string, update: TSlaveRightsChange["update"]): Promise<void> {
  const defined = await definitionsByName();
  for (const [i, record] of update.entries()) {
    // An unknown account is bad input (validation_error), as the grant itself would say.
    try {
      await assertExists("user", record.object);
    } catch (e) {
      asValidationError(e, `update[${i}]`);
    }
    for (const right of record.rights) {
      // An undefined right is named by the grant's own validation (unknown_right).
      if (!defined.has(right) || (await holdsRight({ type: "user", id: master }, { type: "user", id: record.object }, right))) continue;
      throw new AppError("rights.access_denied", {
        desc: "a user token only adds tags to rights its user holds; an administrator grants new ones",
        params: { field: `update[${i}]`, right },
      });
    }
  }
}

/**
 * POST /api/v2/users/{subject}/password: the token's user (the master) sets the password of `slave`
 * when it holds change_password on it. An unknown slave is refused as one without the right, so the
 * answer does not tell which accounts exist. The policy applies as to a password set by a system
 * (no current password, no minimum age); sessions, devices and older tokens of the slave end.
 */
export async function setSlavePassword(ctx: TRequestContext, slave: string, value: string, locale: TLocale): Promise<{ subject: string }> {
  if (ctx.actor.mode !== "user") throw new AppError("rights.access_denied");
  // Setting someone's password is a change of their factors: the master's sign-in must be recent.
  await requireRecentAuth(ctx);
  const master = ctx.actor.userId;
  const account = await findAccount(slave);
  if (!account || !(await holdsRight({ type: "user", id: master }, { type: "user", id: slave }, "change_password"))) {
    throw new AppError("rights.access_denied", { desc: "the token's user does not hold change_password on this account" });
  }
  await changePassword(account, { password: value, locale }, { mode: "system", actor: eventActorOf(ctx), note: { master } }).catch((e: unknown) => {
    // The policy's items name the body's field.
    if (e instanceof AppError && e.details.items) throw new AppError(e.code, { ...e.details, items: e.details.items.map((i) => ({ ...i, pos: i.pos === "password" ? "value" : i.pos })) });
    throw e;
  });
  return { subject: account.id };
}
