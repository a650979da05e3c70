import { z } from "zod";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { csvRecord } from "../audit/csv.ts";
import { AppError } from "../errors/app-error.ts";
import { endAllSessions } from "../sessions/devices-console.service.ts";
import { requireManageable, type TConsoleUser } from "./admin.service.ts";
import { readAccount } from "./users.service.ts";
import { deleteUser, updateUserAttributes, userRows } from "./users-console.service.ts";

export const BULK_ACTIONS = ["lock", "unlock", "endSessions", "delete"] as const;
export type TBulkAction = (typeof BULK_ACTIONS)[number];

/** A selection is a page or a few: bounded, so one call never runs for minutes or holds a huge answer. */
export const ZBulkSubs = z
  .array(z.string().min(1).max(256))
  .min(1)
  .max(100)
  .refine((a) => new Set(a).size === a.length, "accounts must not repeat");

async function applyOne(sub: string, action: TBulkAction, actor: TEventActor): Promise<void> {
  if (action === "endSessions") return endAllSessions(sub, actor);
  const { instanceId } = await readAccount(sub);
  if (action === "delete") return deleteUser(instanceId, actor);
  await updateUserAttributes(instanceId, { locked: action === "lock" }, actor);
}

/**
 * One action on each selected account, one after another, each exactly as on the account's own page
 * (its checks, its event with the administrator, its notice to the person). An account the action
 * is refused for (the administrator's own, one holding a console role for a user manager, the last
 * administrator, one deleted meanwhile) is reported with the refusal's code and the rest go on.
 */
export async function bulkAction(subs: string[], action: TBulkAction, viewer: TConsoleUser, actor: TEventActor) {
  const done: string[] = [];
  const refused: { sub: string; code: string }[] = [];
  for (const sub of subs) {
    try {
      await requireManageable(viewer, { sub });
      await applyOne(sub, action, actor);
      done.push(sub);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      refused.push({ sub, code: e.code });
    }
  }
  return { done, refused };
}

const CSV_HEADER = ["sub", "login", "family_name", "given_name", "email", "email_confirmed", "phone_number", "phone_confirmed", "locked", "roles"];

/**
 * The selected accounts as the list shows them, for a download: JSON, or CSV (RFC 4180, a field that
 * a spreadsheet would run as a formula defused, csv.ts). Accounts gone meanwhile are left out.
 * Personal data leaving in bulk is recorded, as the events export is: the format and how many.
 */
export async function exportUsers(subs: string[], format: "csv" | "json", actor: TEventActor) {
  const rows = await userRows(subs);
  await recordEvent("console.users_exported", actor, { format, count: rows.length });
  if (format === "json") return { filename: "users.json", mime: "application/json", text: JSON.stringify(rows, null, 2) };
  const text =
    csvRecord(CSV_HEADER) +
    rows
      .map((r) =>
        csvRecord([r.sub, r.login, r.familyName, r.givenName, r.email, String(r.emailConfirmed ?? ""), r.phone, String(r.phoneConfirmed ?? ""), String(r.locked), r.roles.join(" ")]),
      )
      .join("");
  return { filename: "users.csv", mime: "text/csv", text };
}
