import { randomBytes } from "node:crypto";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { hashSecret, verifySecret } from "../crypto/password-hash.ts";
import { AppError } from "../errors/app-error.ts";
import { cachedClient, publishClientChange, verifyWithCache } from "./client-cache.ts";
import {
  findClientById,
  findClientForAuth,
  findClients,
  insertClient,
  updateClientRow,
  type TClientAuthRow,
} from "./clients.repository.ts";

export type { TClientAuthRow };
import {
  ZListClientsRequest,
  type TCreateClientRequest,
  type TListClientsRequest,
  type TUpdateClientRequest,
} from "./clients.schemas.ts";
import { toClientView } from "./clients.mapper.ts";

/** A fresh high-entropy secret (256 bits), shown to the administrator once. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function getClientForAuth(id: string): Promise<TClientAuthRow | null> {
  return cachedClient(id, (key) => findClientForAuth(key));
}

export type TClientAuthResult =
  | { ok: true; client: TClientAuthRow }
  | { ok: false; reason: "unknown_client" | "disabled" | "bad_secret" | "no_rest_password" };

/** OAuth client authentication (client_secret_basic / client_secret_post). */
export async function authenticateClient(id: string, secret: string): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client) return { ok: false, reason: "unknown_client" };
  if (!client.enabled) return { ok: false, reason: "disabled" };
  const ok = await verifyWithCache(`secret:${id}`, client.secretHash, secret, verifySecret);
  return ok ? { ok: true, client } : { ok: false, reason: "bad_secret" };
}

/** v1/v2 HTTP Basic: the REST password; without one, Basic is impossible for the client. */
export async function authenticateRestClient(id: string, password: string): Promise<TClientAuthResult> {
  const client = await getClientForAuth(id);
  if (!client) return { ok: false, reason: "unknown_client" };
  if (!client.enabled) return { ok: false, reason: "disabled" };
  if (!client.restPasswordHash) return { ok: false, reason: "no_rest_password" };
  const ok = await verifyWithCache(`rest:${id}`, client.restPasswordHash, password, verifySecret);
  return ok ? { ok: true, client } : { ok: false, reason: "bad_secret" };
}

export async function listClients(req: TListClientsRequest) {
  const { search, after, limit } = ZListClientsRequest.parse(req);
  // One extra row tells whether another page follows without a count query.
  const rows = await findClients({ search, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { items: page.map(toClientView), nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

export async function getClient(id: string) {
  const row = await findClientById(id);
  if (!row) throw new AppError("client.not_found", { params: { rpId: id } });
  return toClientView(row);
}

/** Creates a client with a generated secret; the secret is returned once and stored only hashed. */
export async function createClient(input: TCreateClientRequest, actor: TEventActor) {
  if (await findClientById(input.id)) throw new AppError("client.already_exists", { params: { rpId: input.id } });
  const secret = generateSecret();
  const row = await insertClient(input.id, {
    name: input.name,
    scopes: input.scopes,
    userScopes: input.userScopes ?? [],
    redirectUris: input.redirectUris ?? [],
    tlsCns: input.tlsCNs ?? [],
    secretHash: await hashSecret(secret),
  });
  // A process may hold "no such client" from an earlier attempt with this id.
  await publishClientChange(input.id);
  await recordEvent("client.created", actor, { client: input.id });
  return { client: toClientView(row), secret };
}

export async function updateClient(id: string, patch: TUpdateClientRequest, actor: TEventActor) {
  await getClient(id);
  const row = await updateClientRow(id, {
    name: patch.name,
    scopes: patch.scopes,
    userScopes: patch.userScopes ?? [],
    redirectUris: patch.redirectUris ?? [],
    tlsCns: patch.tlsCNs ?? [],
    enabled: patch.enabled,
  });
  await publishClientChange(id);
  await recordEvent("client.updated", actor, { client: id });
  return toClientView(row);
}

/** Replaces the OAuth secret; the old one stops working at once, on every instance. */
export async function rotateClientSecret(id: string, actor: TEventActor) {
  await getClient(id);
  const secret = generateSecret();
  await updateClientRow(id, { secretHash: await hashSecret(secret) });
  await publishClientChange(id);
  await recordEvent("client.secret_rotated", actor, { client: id });
  return { secret };
}

/** Sets a generated REST (HTTP Basic) password, or removes it when `enable` is false. */
export async function setRestPassword(id: string, enable: boolean, actor: TEventActor) {
  await getClient(id);
  const password = enable ? generateSecret() : null;
  await updateClientRow(id, { restPasswordHash: password ? await hashSecret(password) : null });
  await publishClientChange(id);
  await recordEvent(enable ? "client.rest_password_set" : "client.rest_password_removed", actor, { client: id });
  return { password };
}
