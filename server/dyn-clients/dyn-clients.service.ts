import { randomBytes } from "node:crypto";
import { recordEvent } from "../audit/audit.service.ts";
import { publishClientChange } from "../clients/client-cache.ts";
import { publishRightsChange } from "../rights/rights-cache.ts";
import { generateSecret, getClientForAuth, type TClientAuthRow } from "../clients/clients.service.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { OIDC_SCOPES } from "../clients/known-scopes.ts";
import {
  bindInstance,
  deleteInstanceOf,
  deleteUnboundInstances,
  findInstancesOf,
  findInstancesUnder,
  insertInstance,
  type TInstanceRow,
} from "./dyn-clients.repository.ts";
import { ZRegistrationMetadata, type TRegistrationMetadata, type TRegistrationResponse } from "./dyn-clients.schemas.ts";

/** An instance nobody signed in through (nor registered an account with) is forgotten after a week. */
export const UNBOUND_INSTANCE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The grant types instances use; client_credentials never (see inheritFromParent). */
const INSTANCE_GRANTS = ["authorization_code", "refresh_token"];

const metadataError = (desc: string) => new AppError("oauth.invalid_client_metadata", { desc });

function parseMetadata(body: unknown): TRegistrationMetadata {
  const parsed = ZRegistrationMetadata.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  throw metadataError(`${where}${issue.message}`);
}

/** Scopes an instance of `parent` may ask for at the authorization endpoint. */
function scopesOf(parent: TClientAuthRow): string[] {
  const oidc = OIDC_SCOPES.filter((s) => s !== "offline_access" || parent.grantTypes.includes("refresh_token"));
  return [...oidc, ...parent.userScopes];
}

/** Requested values must be within what the parent has; what is registered is the parent's (RFC 7591 §3.2.1 allows replacing them). */
function checkWithinParent(m: TRegistrationMetadata, parent: TClientAuthRow): void {
  if (!parent.dynSoftwareIds.includes(m.software_id)) throw metadataError("software_id is not admitted for dynamic registration under this client");
  const foreignUri = m.redirect_uris?.find((u) => !parent.redirectUris.includes(u));
  if (foreignUri !== undefined) throw new AppError("oauth.invalid_redirect_uri", { desc: `redirect URI not registered for the application: ${foreignUri.slice(0, 200)}` });
  const grants = parent.grantTypes.filter((g) => INSTANCE_GRANTS.includes(g));
  const foreignGrant = m.grant_types?.find((g) => !(grants as string[]).includes(g));
  if (foreignGrant !== undefined) throw metadataError(`grant type not available to instances: ${foreignGrant.slice(0, 64)}`);
  if (m.response_types?.some((r) => r !== "code")) throw metadataError("only the response type code is supported");
  const scopes = scopesOf(parent);
  const foreignScope = (m.scope ?? "").split(" ").find((s) => s && !scopes.includes(s));
  if (foreignScope !== undefined) throw metadataError(`scope not available to instances: ${foreignScope.slice(0, 128)}`);
}

function newInstanceId(): string {
  return `dyn-${randomBytes(16).toString("base64url")}`;
}

/**
 * POST /oauth/register (RFC 7591): a mobile application installation registers itself under its
 * parent client, whose client_credentials token with the idp_dyn_reg scope it presents. It gets a
 * client id of its own, "free" until an account signs in through it or registers with it.
 */
export async function registerInstance(parentId: string, body: unknown): Promise<TRegistrationResponse> {
  const m = parseMetadata(body);
  const parent = await getClientForAuth(parentId);
  if (!parent || parent.parentId) throw metadataError("software_id is not admitted for dynamic registration under this client");
  checkWithinParent(m, parent);
  const method = m.token_endpoint_auth_method ?? "client_secret_basic";
  const secret = method === "none" ? undefined : generateSecret();
  const id = newInstanceId();
  const name = m.client_name?.trim() || parent.name;
  const createdAt = await insertInstance({
    id,
    name,
    type: secret ? "confidential" : "public",
    secretHash: secret ? await hashSecret(secret) : null,
    parentId: parent.id,
    softwareId: m.software_id,
    softwareVersion: m.software_version ?? null,
  });
  await recordEvent("client.instance_registered", { clientId: parent.id }, { instance: id, softwareId: m.software_id, softwareVersion: m.software_version ?? null });
  return {
    client_id: id,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 as const } : {}),
    client_id_issued_at: Math.floor(createdAt.getTime() / 1000),
    client_name: name,
    token_endpoint_auth_method: method,
    redirect_uris: parent.redirectUris,
    post_logout_redirect_uris: parent.postLogoutRedirectUris,
    grant_types: parent.grantTypes.filter((g) => INSTANCE_GRANTS.includes(g)),
    response_types: ["code"],
    scope: scopesOf(parent).join(" "),
    software_id: m.software_id,
    ...(m.software_version ? { software_version: m.software_version } : {}),
  };
}

/**
 * A sign-in through an instance binds it to the account; through an instance bound to another
 * account it is refused (false), since the instance stands for one user's installation. Other
 * clients pass without a query.
 */
export async function bindOnSignIn(clientId: string, userId: string, now = new Date()): Promise<boolean> {
  const client = await getClientForAuth(clientId);
  if (!client?.parentId) return true;
  const outcome = await bindInstance(clientId, userId, now);
  if (outcome === "bound") await recordEvent("client.instance_bound", { subject: userId, clientId }, { via: "sign_in" });
  return outcome !== "refused";
}

/** bindDynClient: the ids that are not free instances registered under the calling client, and why. */
export async function refusedBindings(ids: string[], callerClientId: string): Promise<{ index: number; id: string; reason: "unknown" | "bound" }[]> {
  if (ids.length === 0) return [];
  const found = new Map((await findInstancesUnder(callerClientId, ids)).map((r) => [r.id, r.bound]));
  return ids.flatMap((id, index) => {
    const bound = found.get(id);
    if (bound === false) return [];
    return [{ index, id, reason: bound === undefined ? ("unknown" as const) : ("bound" as const) }];
  });
}

/** bindDynClient of a registration, in its transaction: each instance still free goes to the new account. */
export async function bindAtRegistration(ids: string[], userId: string, tx: TTx, now = new Date()): Promise<string[]> {
  const bound: string[] = [];
  for (const id of ids) if ((await bindInstance(id, userId, now, tx)) === "bound") bound.push(id);
  return bound;
}

export type TAppInstance = TInstanceRow;

/** The instances bound to the user, latest sign-in first. */
export function listInstancesOf(userId: string): Promise<TAppInstance[]> {
  return findInstancesOf(userId);
}

/**
 * Removes an instance of the user. Its refresh tokens and codes go with the row; its access tokens
 * fail at once everywhere, since every bearer check and introspection looks the client up (in
 * process) and it is gone.
 */
export async function removeInstance(userId: string, id: string): Promise<boolean> {
  if (!(await deleteInstanceOf(userId, id))) return false;
  await publishClientChange(id);
  // Rights of and on the instance went with it (a trigger), also from other parties' listings.
  await publishRightsChange();
  return true;
}

/** Hourly maintenance: instances nobody bound within UNBOUND_INSTANCE_TTL_MS. */
export async function purgeUnboundInstances(before: Date): Promise<number> {
  const removed = await deleteUnboundInstances(before);
  // Ids are not returned by a bulk delete; once an hour at most, every process re-reads its clients.
  if (removed) await Promise.all([publishClientChange(), publishRightsChange()]);
  return removed;
}
