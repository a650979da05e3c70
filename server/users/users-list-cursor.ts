import { AppError } from "../errors/app-error.ts";
import type { TUserSort } from "./users-list.shared.ts";

/** Where a page of the users list ends: the last row's sort key (null: it has none) and its id. */
export type TListPosition = { key: string | boolean | Date | null; id: string };

const refuse = () => new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "not a cursor of this order of the list", pos: "after" }] });

/**
 * The cursor of the next page in `sort`. The id order's cursor is the id itself (its key is the id,
 * and links made before the list could be sorted keep working); the others carry key and id as
 * base64url JSON, so a page stays exact even when the row it ended on changes or goes meanwhile.
 */
export function encodeCursor(sort: TUserSort, at: TListPosition): string {
  if (sort === "sub") return at.id;
  const key = at.key instanceof Date ? at.key.toISOString() : at.key;
  return Buffer.from(JSON.stringify([key, at.id]), "utf8").toString("base64url");
}

/** The position a cursor of `sort` names; a cursor of another order, or none at all, is refused as input. */
export function decodeCursor(sort: TUserSort, cursor: string): TListPosition {
  if (sort === "sub") return { key: cursor, id: cursor };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[1] !== "string") throw refuse();
  const [key, id] = parsed as [unknown, string];
  if (sort === "created") {
    const at = typeof key === "string" ? new Date(key) : null;
    if (!at || Number.isNaN(at.getTime())) throw refuse();
    return { key: at, id };
  }
  if (sort === "status") {
    if (typeof key !== "boolean") throw refuse();
    return { key, id };
  }
  if (key !== null && typeof key !== "string") throw refuse();
  return { key, id };
}
