import { randomBytes } from "node:crypto";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { hashSecret, verifySecret, verifySecretOrDummy } from "../crypto/password-hash.ts";
import { AppError } from "../errors/app-error.ts";
import { isBuiltinClient } from "../auth/apps.ts";
import { cachedClient, cachedClientIdsByCn, publishClientChange, verifyWithCache } from "./client-cache.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { publishSelectionChange } from "../attributes/selections.service.ts";
import { publishRightsChange } from "../rights/rights-cache.ts";
import { unknownScopeProblems } from "./known-scopes.ts";
import {
  countClientLinks,
  deleteClientRow,
  findClientById,
  findClientForAuth,
  findClientIdsByTlsCn,
  findClients,
  insertClient,
  updateClientRow,
  type TClientAuthRow,
} from "./clients.repository.ts";

export type { TClientAuthRow };
import {
  clientRuleProblems,
  ZListClientsRequest,
  type TClientView,
  type TCreateClientRequest,
  type TListClientsRequest,
  type TUpdateClientRequest,
} from "./clients.schemas.ts";
import { inheritFromParent, toClientView, toClientWrite } from "./clients.mapper.ts";

/** A fresh high-entropy secret (256 bits), shown to the administrator once. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * A client as authentication and authorization see it; an instance with what it inherits from its
 * parent. Read on every bearer request: without a Promise when the client (and its parent) are in process.
 */
export function getClientForAuth(id: string): TMaybePromise<TClientAuthRow | null> {
  return andThen(cachedClient(id, findClientForAuth), (row) => {
    if (!row?.parentId) return row;
    // An instance older than its parent belonged to a deleted client whose id was taken again.
    return andThen(cachedClient(row.parentId, findClientForAuth), (parent) =>
      parent && parent.createdAt <= row.createdAt ? inheritFromParent(row, parent) : null,
    );
  });
}

/**
 * Whether a token issued at `iat` (seconds) can be this client's: one older than the client was
 * issued to a deleted application whose id has been taken again, and speaks for nobody now. Whole
 * seconds both: a token of the same second as the client stands, or a new client's first token
 * would be refused (an id deleted and taken again within one second keeps that second's tokens).
 */
export function issuedToThisClient(client: TClientAuthRow, iat: number): boolean {
  return iat >= Math.floor(client.createdAt.getTime() / 1000);
}

export type TClientAuthResult =
  | { ok: true; client: TClientAuthRow }
  | {
      ok: false;
      reason: "unknown_client" | "disabled" | "bad_secret" | "no_rest_password" | "public_client" | "confidential_client" | "cn_not_listed" | "cn_ambiguous";
    };

/** Runs a secret check that is not answered from memory; a rate limit wraps it (client-auth.ts). */
export type TJudge = (check: () => Promise<boolean>) => Promise<boolean>;

/**
 * A refusal that costs what a wrong secret costs, and is limited and counted as one (through the
 * same judge): an unknown client id, a disabled client or one without this kind of secret is checked
 * against a dummy hash, so neither the answer's timing nor its throttling tells which ids exist.
 */
async function refusedAfterDummyCheck(reason: Extract<TClientAuthResult, { ok: false }>["reason"], secret: string, judge: TJudge): Promise<TClientAuthResult> {
  await judge(() => verifySecretOrDummy(null, secret));
  return { ok: false, reason };
}

/** OAuth client authentication (client_secret_basic / client_secret_post); a public client has no secret to present. */
export async function authenticateClient(id: string, secret: string, judge: TJudge = (check) => check()): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client?.enabled || client.secretHash === null) return refusedAfterDummyCheck(!client ? "unknown_client" : !client.enabled ? "disabled" : "public_client", secret, judge);
  const ok = await verifyWithCache(`secret:${id}`, client.secretHash, secret, (hash, plain) => judge(() => verifySecret(hash, plain)));
  return ok ? { ok: true, client } : { ok: false, reason: "bad_secret" };
}

/** token_endpoint_auth_method "none": only a public client may be known by its id alone. */
export async function identifyPublicClient(id: string): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client) return { ok: false, reason: "unknown_client" };
  if (!client.enabled) return { ok: false, reason: "disabled" };
  return client.type === "public" ? { ok: true, client } : { ok: false, reason: "confidential_client" };
}

/** v1/v2 HTTP Basic: the REST password; without one, Basic is impossible for the client. */
export async function authenticateRestClient(id: string, password: string, judge: TJudge = (check) => check()): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client?.enabled || !client.restPasswordHash) return refusedAfterDummyCheck(!client ? "unknown_client" : !client.enabled ? "disabled" : "no_rest_password", password, judge);
  const ok = await verifyWithCache(`rest:${id}`, client.restPasswordHash, password, (hash, plain) => judge(() => verifySecret(hash, plain)));
  return ok ? { ok: true, client } : { ok: false, reason: "bad_secret" };
}

/**
 * A client certificate (verified by the server, server/http/tls-identity.ts) presented for client
 * `id`: its CN must be one the client lists; a client listing none cannot authenticate this way.
 */
export async function authenticateTlsClient(id: string, cn: string): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client) return { ok: false, reason: "unknown_client" };
  if (!client.enabled) return { ok: false, reason: "disabled" };
  // A public client (a browser or mobile app) has no credentials, a certificate included: the token
  // endpoint takes it as "none", and the REST API, which serves only confidential clients, refuses it.
  if (client.type === "public") return { ok: false, reason: "public_client" };
  return client.tlsCns.includes(cn) ? { ok: true, client } : { ok: false, reason: "cn_not_listed" };
}

/**
 * v1/v2 with a certificate and no client named: the one client that lists the CN. Several clients
 * may list one CN (nothing forbids it, and a shared certificate is a real setup), and picking one of
 * them would act as a client chosen by row order: then the caller must name the client
 * (docs/operations/serving-and-tls.md), and the unnamed call authenticates nobody.
 */
export async function identifyTlsClient(cn: string): Promise<TClientAuthResult & { id?: string }> {
  const ids = await cachedClientIdsByCn(cn, (c) => findClientIdsByTlsCn(c, 2));
  if (ids.length === 0) return { ok: false, reason: "cn_not_listed" };
  if (ids.length > 1) return { ok: false, reason: "cn_ambiguous" };
  return { ...(await authenticateTlsClient(ids[0]!, cn)), id: ids[0] };
}

export async function listClients(req: TListClientsRequest) {
  const { search, after, limit } = ZListClientsRequest.parse(req);
  // One extra row tells whether another page follows without a count query.
  const rows = await findClients({ search, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { items: page.map(toClientView), nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

/**
 * The console's and portal's own clients are rebuilt at every start from the server's configuration
 * (builtin-clients.ts); an edit would either break their sign-in or be undone at the next start.
 */
function refuseBuiltin(id: string): void {
  if (isBuiltinClient(id)) throw new AppError("client.builtin", { params: { rpId: id } });
}

export async function getClient(id: string) {
  const row = await findClientById(id);
  if (!row) throw new AppError("client.not_found", { params: { rpId: id } });
  return toClientView(row);
}

function refuseProblems(problems: { path: string; message: string }[]): void {
  if (problems.length) {
    throw new AppError("request.invalid_values", { items: problems.map((p) => ({ error: "wrong_value", desc: p.message, pos: p.path })) });
  }
}

/**
 * Creates a client. A confidential one gets a generated secret, returned once and stored only
 * hashed; a public one (a browser or mobile application) has none, and `secret` is null.
 */
export async function createClient(input: TCreateClientRequest, actor: TEventActor) {
  refuseBuiltin(input.id);
  refuseProblems(unknownScopeProblems(input));
  // Any row with the id, a SAML service provider's included: they share the table.
  if (await findClientForAuth(input.id)) throw new AppError("client.already_exists", { params: { rpId: input.id } });
  const secret = input.type === "public" ? null : generateSecret();
  const row = await insertClient(input.id, { ...toClientWrite(input), secretHash: secret === null ? null : await hashSecret(secret) });
  // A process may hold "no such client" from an earlier attempt with this id.
  await publishClientChange(input.id);
  await recordEvent("client.created", actor, { client: input.id });
  return { client: toClientView(row), secret };
}

/** The stored columns an edit changes; a field the edit leaves out keeps its value. */
function patchColumns(current: TClientView, patch: TUpdateClientRequest) {
  const lifetimes = patch.tokenLifetimes;
  return {
    name: patch.name,
    enabled: patch.enabled,
    scopes: patch.scopes,
    userScopes: patch.userScopes ?? current.userScopes,
    firstParty: patch.firstParty ?? current.firstParty,
    pkceOptional: patch.pkceOptional ?? current.pkceOptional,
    grantTypes: patch.grantTypes ?? current.grantTypes,
    redirectUris: patch.redirectUris ?? current.redirectUris,
    postLogoutRedirectUris: patch.postLogoutRedirectUris ?? current.postLogoutRedirectUris,
    tlsCns: patch.tlsCNs ?? current.tlsCNs,
    dynSoftwareIds: patch.dynamicRegistration?.softwareIds ?? current.dynamicRegistration.softwareIds,
    ...(lifetimes && { accessTokenTtl: lifetimes.accessToken ?? null, refreshTokenTtl: lifetimes.refreshToken ?? null, idTokenTtl: lifetimes.idToken ?? null }),
  };
}

export async function updateClient(id: string, patch: TUpdateClientRequest, actor: TEventActor) {
  refuseBuiltin(id);
  const current = await getClient(id);
  const columns = patchColumns(current, patch);
  refuseProblems([
    ...clientRuleProblems({
      type: current.type,
      scopes: columns.scopes,
      grantTypes: columns.grantTypes,
      redirectUris: columns.redirectUris,
      softwareIds: columns.dynSoftwareIds,
    }),
    ...unknownScopeProblems(columns, current),
  ]);
  const row = await updateClientRow(id, columns);
  await publishClientChange(id);
  await recordEvent("client.updated", actor, { client: id });
  return toClientView(row);
}

function publicHasNoSecret(): AppError {
  return new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "a public client has no secret", pos: "type" }] });
}

/** Replaces the OAuth secret; the old one stops working at once, on every instance. */
export async function rotateClientSecret(id: string, actor: TEventActor) {
  refuseBuiltin(id);
  const client = await getClient(id);
  if (client.type === "public") throw publicHasNoSecret();
  const secret = generateSecret();
  await updateClientRow(id, { secretHash: await hashSecret(secret) });
  await publishClientChange(id);
  await recordEvent("client.secret_rotated", actor, { client: id });
  return { secret };
}

/** Sets a generated REST (HTTP Basic) password, or removes it when `enable` is false. */
export async function setRestPassword(id: string, enable: boolean, actor: TEventActor) {
  refuseBuiltin(id);
  const client = await getClient(id);
  if (enable && client.type === "public") throw publicHasNoSecret();
  const password = enable ? generateSecret() : null;
  await updateClientRow(id, { restPasswordHash: password ? await hashSecret(password) : null });
  await publishClientChange(id);
  await recordEvent(enable ? "client.rest_password_set" : "client.rest_password_removed", actor, { client: id });
  return { password };
}

/** What deleting the client would end, for the console to spell out before it asks. */
export async function clientDeletionImpact(id: string) {
  refuseBuiltin(id);
  await getClient(id);
  return countClientLinks(id, new Date());
}

/**
 * Deletes a client with its instances, consents, codes and refresh tokens. Its access tokens stop
 * at once on every instance: they name a client that is no longer there (and, should the id be
 * taken again, one created after them, server/caller/authenticate.ts).
 */
export async function deleteClient(id: string, actor: TEventActor) {
  // The impact check refuses a built-in or unknown client first.
  const impact = await clientDeletionImpact(id);
  if (!(await deleteClientRow(id))) throw new AppError("client.not_found", { params: { rpId: id } });
  // Every cached client is dropped, not just this one: its instances went with it, including one
  // registered after they were counted. The rights of and on it went too (a trigger), also from
  // other parties' listings, and its attribute selections.
  await publishClientChange();
  await publishRightsChange();
  await publishSelectionChange(id);
  await recordEvent("client.deleted", actor, { client: id, refreshGrants: impact.refreshTokens, consents: impact.consents, instances: impact.instances });
  return impact;
}
