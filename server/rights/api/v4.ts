import { AppError } from "../../errors/app-error.ts";
import type { TGrantRow, TParty } from "../rights.repository.ts";
import type { TRightsOnV4 } from "../rights.schemas.ts";

// The cursor: the last subject of a page, base64url of JSON [type, id]; opaque to callers.
export function encodeCursor(p: TParty): string {
  return Buffer.from(JSON.stringify([p.type, p.id])).toString("base64url");
}

/** The subject a cursor names; 400 (pos "after") for anything this service did not hand out. */
export function decodeCursor(after: string): TParty {
  try {
    const [type, id] = JSON.parse(Buffer.from(after, "base64url").toString("utf8")) as unknown[];
    if ((type === "user" || type === "its") && typeof id === "string") return { type, id };
  } catch {
    // falls through to the 400 below
  }
  throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "not a cursor this service gave", pos: "after" }] });
}

/** A page of rows (subject, right, tag order) as subjects with their rights and tags; `next` when more follow. */
export function toRightsOnV4(rows: TGrantRow[], more: boolean): TRightsOnV4 {
  const items: TRightsOnV4["items"] = [];
  for (const r of rows) {
    let item = items[items.length - 1];
    if (!item || item.subject !== r.subjectId || item.subjectType !== r.subjectType) {
      item = { subject: r.subjectId, subjectType: r.subjectType as "user" | "its", rights: [] };
      items.push(item);
    }
    const last = item.rights[item.rights.length - 1];
    if (last?.name === r.rightName) last.tags.push(r.tag);
    else item.rights.push({ name: r.rightName, tags: [r.tag] });
  }
  const tail = items[items.length - 1];
  return more && tail ? { items, next: encodeCursor({ type: tail.subjectType, id: tail.subject }) } : { items };
}
