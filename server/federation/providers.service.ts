import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TProviderKey, TProviderParsed, TProviderView } from "./federation.schemas.ts";
import { publishProvidersChange } from "./offered-providers-cache.ts";
import { sealClientSecret, unsealClientSecret } from "./provider-secrets.ts";
import { countBindings, deleteProvider, findProvider, findProviders, lockProvider, upsertProvider, type TProviderRow } from "./providers.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { findProvider, findProviders } from "./providers.repository.ts";

/*
 * External providers: configured by the import file and the console. The client secret is write-only
 * everywhere: sealed on the way in, never in a view, an event or a log line.
 */

export const providerLabel = (k: TProviderKey | TProviderRow) => `${k.fpType}:${k.fpName}`;

function toView(row: TProviderRow, bindings: number): TProviderView {
  const { clientSecret, ...rest } = row;
  const opt = <T>(v: T | null) => v ?? undefined;
  return {
    ...rest,
    fpType: row.fpType as TProviderView["fpType"],
    discoveryUrl: opt(rest.discoveryUrl),
    authorizationEndpoint: opt(rest.authorizationEndpoint),
    tokenEndpoint: opt(rest.tokenEndpoint),
    userinfoEndpoint: opt(rest.userinfoEndpoint),
    jwksUri: opt(rest.jwksUri),
    issuer: opt(rest.issuer),
    hasClientSecret: clientSecret !== null,
    bindings,
  };
}

/** The row to store: a given secret is sealed, an absent one keeps what is stored. */
function toRow(p: TProviderParsed, stored: TProviderRow | null): TProviderRow {
  const { clientSecret, ...rest } = p;
  const nul = <T>(v: T | undefined) => v ?? null;
  return {
    ...rest,
    clientSecret: clientSecret !== undefined ? sealClientSecret(clientSecret) : (stored?.clientSecret ?? null),
    discoveryUrl: nul(rest.discoveryUrl),
    authorizationEndpoint: nul(rest.authorizationEndpoint),
    tokenEndpoint: nul(rest.tokenEndpoint),
    userinfoEndpoint: nul(rest.userinfoEndpoint),
    jwksUri: nul(rest.jwksUri),
    issuer: nul(rest.issuer),
  };
}

/** Whether storing `p` would change nothing (the secret compared in the clear, as the sealed form is randomised). */
function sameAsStored(p: TProviderParsed, stored: TProviderRow): boolean {
  const next = toRow({ ...p, clientSecret: undefined }, stored);
  const keys = Object.keys(next) as (keyof TProviderRow)[];
  const sameFields = keys.every((k) => k === "clientSecret" || JSON.stringify(next[k]) === JSON.stringify(stored[k]));
  const sameSecret = p.clientSecret === undefined || (stored.clientSecret !== null && unsealClientSecret(stored.clientSecret) === p.clientSecret);
  return sameFields && sameSecret;
}

/** The provider or 404 federation.provider_not_found. */
export async function requireProvider(key: TProviderKey, tx?: TTx): Promise<TProviderRow> {
  const row = await findProvider(key, tx);
  if (!row) throw new AppError("federation.provider_not_found", { params: { ...key } });
  return row;
}

export async function listProviders(): Promise<TProviderView[]> {
  const [rows, counts] = await Promise.all([findProviders(), countBindings()]);
  return rows.map((r) => toView(r, counts.get(providerLabel(r)) ?? 0));
}

export async function readProvider(key: TProviderKey): Promise<TProviderView> {
  const row = await requireProvider(key);
  return toView(row, (await countBindings()).get(providerLabel(key)) ?? 0);
}

/** Creates a provider (`create`) or replaces an existing one's settings; events never carry the secret. */
export async function saveProvider(p: TProviderParsed, mode: "create" | "update", actor: TEventActor, note: Record<string, unknown> = {}): Promise<TProviderView> {
  const key = { fpType: p.fpType, fpName: p.fpName };
  await inTransaction(async (tx) => {
    const stored = await findProvider(key, tx);
    if (mode === "create" && stored) throw new AppError("federation.provider_exists", { params: key });
    if (mode === "update" && !stored) throw new AppError("federation.provider_not_found", { params: key });
    await upsertProvider(toRow(p, stored), tx);
  });
  await publishProvidersChange();
  // `rotated`: a new client secret was set (a key named "secret…" would be redacted from the event).
  await recordEvent(mode === "create" ? "federation.provider_created" : "federation.provider_changed", actor, {
    ...note, provider: providerLabel(key), rotated: p.clientSecret !== undefined,
  });
  return readProvider(key);
}

/**
 * Deletes a provider. Refused (409 fp_in_use, params.bindings) while accounts are bound to it, unless
 * `force`: then its bindings go with it in the same transaction, each user losing that sign-in way.
 */
export async function removeProvider(key: TProviderKey, force: boolean, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const unbound = await inTransaction(async (tx) => {
    if (!(await lockProvider(key, tx))) throw new AppError("federation.provider_not_found", { params: { ...key } });
    const bindings = (await countBindings(tx)).get(providerLabel(key)) ?? 0;
    if (bindings && !force) throw new AppError("federation.provider_in_use", { params: { ...key, bindings } });
    await deleteProvider(key, tx);
    return bindings;
  });
  await publishProvidersChange();
  await recordEvent("federation.provider_deleted", actor, { ...note, provider: providerLabel(key), force, unboundAccounts: unbound });
}

type TSectionSummary = { created: string[]; updated: string[]; unchanged: string[] };

/** The import document's `providers` section: each created or replaced; importing twice changes nothing. */
export async function applyProviderImport(providers: TProviderParsed[], tx: TTx): Promise<TSectionSummary> {
  const summary: TSectionSummary = { created: [], updated: [], unchanged: [] };
  for (const p of providers) {
    const stored = await findProvider({ fpType: p.fpType, fpName: p.fpName }, tx);
    const label = providerLabel(p);
    if (stored && sameAsStored(p, stored)) {
      summary.unchanged.push(label);
      continue;
    }
    await upsertProvider(toRow(p, stored), tx);
    (stored ? summary.updated : summary.created).push(label);
  }
  return summary;
}
