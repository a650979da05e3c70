import { FilterParser } from "ldapts";
import { sealFor, unsealFor } from "../crypto/keys.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { findDirectory, upsertDirectory, type TDirectory } from "./directories.repository.ts";
import { directoryEndpoint } from "./directory-url.ts";
import type { TDirectoryImport } from "./directory.schemas.ts";

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

function refuse(pos: string, desc: string): never {
  throw new AppError("import.invalid_document", { items: [{ error: "wrong_value", desc, pos }] });
}

function checkFilter(filter: string | undefined, pos: string): void {
  if (filter === undefined) return;
  try {
    FilterParser.parseString(filter);
  } catch (e) {
    refuse(pos, `is not an LDAP filter (RFC 4515): ${(e as Error).message}`);
  }
}

/** Checks every directory before the import's transaction: its URL, its filters, its certificates. */
export function prepareDirectoryImport(entries: TDirectoryImport[]): TDirectoryImport[] {
  for (const [i, e] of entries.entries()) {
    const pos = `$.directories[${i}]`;
    const endpoint = directoryEndpoint(e.url, e.startTls);
    if ("problem" in endpoint) refuse(`${pos}.url`, endpoint.problem);
    checkFilter(e.userFilter, `${pos}.userFilter`);
    checkFilter(e.disabledFilter, `${pos}.disabledFilter`);
    checkFilter(e.groups?.filter, `${pos}.groups.filter`);
    if (e.caCert !== undefined && !/-----BEGIN CERTIFICATE-----/.test(e.caCert)) refuse(`${pos}.caCert`, "must be PEM certificates");
  }
  return entries;
}

const rowOf = (e: TDirectoryImport, bindPassword: string): TDirectory => ({
  id: e.id,
  name: e.name,
  enabled: e.enabled,
  url: e.url,
  startTls: e.startTls,
  caCert: e.caCert ?? null,
  bindDn: e.bindDn,
  bindPassword,
  baseDn: e.baseDn,
  userFilter: e.userFilter,
  loginAttribute: e.loginAttribute,
  idAttribute: e.idAttribute,
  disabledFilter: e.disabledFilter ?? null,
  attributeMap: e.attributes,
  mode: e.mode,
  syncIntervalS: e.syncIntervalS,
  missingPolicy: e.missingPolicy,
  changeAttribute: e.changeAttribute,
  passwordChange: e.passwordChange,
  passwordProtocol: e.passwordProtocol,
  groupMap: e.groups ?? null,
});

/** Upserts the directories by id; the bind password is sealed, and a stored one that is the same counts as unchanged. */
export async function applyDirectoryImport(entries: TDirectoryImport[], tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  for (const e of entries) {
    const stored = await findDirectory(e.id, tx);
    if (stored && unsealFor("directory-secrets", stored.bindPassword) === e.bindPassword && sameJson(rowOf(e, stored.bindPassword), stored)) {
      summary.unchanged.push(e.id);
      continue;
    }
    await upsertDirectory(rowOf(e, sealFor("directory-secrets", e.bindPassword)), tx);
    (stored ? summary.updated : summary.created).push(e.id);
  }
  return summary;
}
