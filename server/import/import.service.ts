import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { applyClientImport, prepareClientImport, publishClientImport } from "../clients/clients.import.ts";
import { applyAttributeImport, applySelectionImport, catalogIn } from "../attributes/attributes.import.ts";
import { applyBrandingImport } from "../branding/branding.import.ts";
import { publishBrandingChange } from "../branding/branding.service.ts";
import { publishCatalogChange } from "../attributes/attributes.service.ts";
import { publishSelectionChange } from "../attributes/selections.service.ts";
import { inTransaction } from "../db/index.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { applyPolicyImport } from "../passwords/policy.import.ts";
import { publishPolicyChange } from "../passwords/policy-store.ts";
import { applyPasskeyPolicyImport } from "../passkeys/passkey-policy.import.ts";
import { publishPasskeyPolicyChange } from "../passkeys/passkey-policy.service.ts";
import { publishProvidersChange } from "../federation/offered-providers-cache.ts";
import { applyUserImport, prepareUserImport } from "../users/users.import.ts";
import { applyDeviceImport, prepareDeviceImport } from "../otp/otp-devices.import.ts";
import path from "node:path";
import { applyRightsImport, publishRightsImport } from "../rights/definitions.service.ts";
import { applyGroupProfilesImport, applyGroupsImport, publishGroupsImport } from "../groups/groups.import.ts";
import { applyProviderImport } from "../federation/providers.service.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { ZImportDocument, type TImportSummary } from "./import.schemas.ts";
import { applySpImport, prepareSpImport } from "../saml/sps/service-providers.import.ts";
import { applyDirectoryImport, prepareDirectoryImport } from "../directories/directories.import.ts";
import { publishSpChange } from "../saml/sps/service-providers.service.ts";

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
export async function importDocument(raw: unknown, actor: TEventActor, baseDir?: string): Promise<TImportSummary> {
  const parsed = ZImportDocument.safeParse(raw);
  if (!parsed.success) throw new AppError("import.invalid_document", { items: issuesToItems(parsed.error.issues) });
  const doc = parsed.data;
  // Hashing is slow (argon2), so it happens before the transaction, not inside it.
  const clients = await prepareClientImport(doc.clients ?? []);
  const users = await prepareUserImport(doc.users ?? []);
  const devices = await prepareDeviceImport(doc.otpDevices ?? [], baseDir);
  const sps = await prepareSpImport(doc.samlServiceProviders ?? [], baseDir);
  const directories = prepareDirectoryImport(doc.directories ?? []);
  let selected: string[] = [];
  const summary = await inTransaction(async (tx) => {
    const attributes = await applyAttributeImport(doc.attributes ?? [], tx);
    const catalog = await catalogIn(tx);
    const clientResult = await applyClientImport(clients, tx);
    selected = await applySelectionImport(doc.clients ?? [], catalog, tx);
    const userResult = await applyUserImport(users, catalog, tx);
    const passwordPolicy = await applyPolicyImport(doc.passwordPolicy, tx);
    return {
      attributes,
      clients: clientResult,
      users: userResult,
      passwordPolicy,
      passkeyPolicy: await applyPasskeyPolicyImport(doc.passkeyPolicy, tx),
      otpDevices: await applyDeviceImport(devices, tx),
      rights: await applyRightsImport(doc.rights ?? [], tx),
      groupProfiles: await applyGroupProfilesImport(doc.groupProfiles ?? [], tx),
      groups: await applyGroupsImport(doc.groups ?? [], actor, tx),
      providers: await applyProviderImport(doc.providers ?? [], tx),
      branding: await applyBrandingImport(doc.branding, tx),
      samlServiceProviders: await applySpImport(sps, tx),
      directories: await applyDirectoryImport(directories, tx),
    };
  });
  await publishImport(summary, selected);
  const changed = Object.values(summary).some((s) => s.created.length + s.updated.length > 0);
  if (changed) await recordEvent("import.applied", actor, summary);
  return summary;
}

/** After the import committed: every process drops what it changed. */
async function publishImport(summary: TImportSummary, selected: string[]): Promise<void> {
  if (summary.attributes.created.length + summary.attributes.updated.length) await publishCatalogChange();
  await publishClientImport(summary.clients);
  for (const id of selected) await publishSelectionChange(id);
  await publishAccountChange(...summary.users.created, ...summary.users.updated);
  if (summary.passwordPolicy.created.length + summary.passwordPolicy.updated.length) await publishPolicyChange();
  if (summary.passkeyPolicy.created.length + summary.passkeyPolicy.updated.length) await publishPasskeyPolicyChange();
  await publishRightsImport(summary.rights);
  await publishGroupsImport(summary.groupProfiles, summary.groups);
  if (summary.providers.created.length + summary.providers.updated.length) await publishProvidersChange();
  if (summary.branding.created.length + summary.branding.updated.length) await publishBrandingChange();
  if (summary.samlServiceProviders.created.length + summary.samlServiceProviders.updated.length) {
    await publishSpChange();
    // The name is on the provider's row in clients too, which the sign-in pages read through the clients' cache.
    await publishClientImport({ created: summary.samlServiceProviders.created, updated: summary.samlServiceProviders.updated, unchanged: [] });
  }
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
  return importDocument(raw, actor, path.dirname(file));
}
