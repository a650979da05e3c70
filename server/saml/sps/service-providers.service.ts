import { keyedCache } from "../../cache/keyed-cache.ts";
import { publishChange } from "../../cache/change-bus.ts";
import { deleteExpiredLogouts } from "../slo/slo.repository.ts";
import { deleteExpiredSamlRows, findAllSps, findSpByEntityId, findSpById, type TServiceProvider } from "./service-providers.repository.ts";
import { getConfig } from "../../config/config.ts";

export type { TServiceProvider } from "./service-providers.repository.ts";

// Service providers by entity ID: every SAML request names one, and they change rarely.
const TOPIC = "saml-sps";
const byEntityId = keyedCache<TServiceProvider | null>(TOPIC, { ttlMs: 5 * 60_000, maxEntries: 1_000 });

/** The provider that calls itself `entityId`, or null; a disabled one too (the caller refuses it with its reason). */
export async function getSpByEntityId(entityId: string): Promise<TServiceProvider | null> {
  return byEntityId.read(entityId, (id) => findSpByEntityId(id));
}

export async function getSpById(id: string): Promise<TServiceProvider | null> {
  return findSpById(id);
}

/** After a change committed: every process drops its copies (by entity ID, so all of them). */
export async function publishSpChange(): Promise<void> {
  await publishChange(TOPIC);
}

/** Request IDs, parked requests and logouts past use (maintenance, on every instance). */
export async function deleteExpiredSamlRequests(now: Date): Promise<number> {
  return (await deleteExpiredSamlRows(now)) + (await deleteExpiredLogouts(now));
}

/** The applications a signed-in person may open from the portal (IdP-initiated sign-on): name and where to go. */
export async function listOpenableSps(): Promise<{ id: string; name: string; url: string }[]> {
  const issuer = getConfig().issuer;
  return (await findAllSps()).filter((sp) => sp.enabled && sp.allowIdpInitiated).map((sp) => ({ id: sp.id, name: sp.name, url: `${issuer}/saml/idp-init?sp=${encodeURIComponent(sp.id)}` }));
}
