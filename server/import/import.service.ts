import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { applyClientImport, prepareClientImport, publishClientImport } from "../clients/clients.import.ts";
import { inTransaction } from "../db/index.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { ZImportDocument, type TImportSummary } from "./import.schemas.ts";

/** `$.clients[0].scopes[1]`: where in the document a problem is. */
export function jsonPath(path: PropertyKey[]): string {
  return "$" + path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
}

export function issuesToItems(issues: z.core.$ZodIssue[]): TInputItem[] {
  return issues.map((i) => ({ error: "wrong_value", desc: i.message, pos: jsonPath(i.path) }));
}

/**
 * Validates the whole document first and refuses it as a whole, with the JSON path of each problem;
 * then writes everything in one transaction. Importing the same document twice changes nothing.
 */
export async function importDocument(raw: unknown, actor: TEventActor): Promise<TImportSummary> {
  const parsed = ZImportDocument.safeParse(raw);
  if (!parsed.success) throw new AppError("import.invalid_document", { items: issuesToItems(parsed.error.issues) });
  // Hashing is slow (argon2), so it happens before the transaction, not inside it.
  const clients = await prepareClientImport(parsed.data.clients ?? []);
  const summary = await inTransaction(async (tx) => ({ clients: await applyClientImport(clients, tx) }));
  await publishClientImport(summary.clients);
  const changed = summary.clients.created.length + summary.clients.updated.length;
  if (changed > 0) await recordEvent("import.applied", actor, { clients: summary.clients });
  return summary;
}

export async function importFile(file: string, actor: TEventActor): Promise<TImportSummary> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new AppError("import.invalid_document", {
      items: [{ error: "unreadable", desc: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? "error"}`, pos: "$" }],
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new AppError("import.invalid_document", { items: [{ error: "malformed_json", desc: (e as Error).message, pos: "$" }] });
  }
  return importDocument(raw, actor);
}
