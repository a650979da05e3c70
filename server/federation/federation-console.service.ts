import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import { readAccount } from "../users/users.service.ts";
import { toFederatedAccountV3, type TFederatedAccountV3 } from "./api/v3.ts";
import { bindingsOf, unbindExternalAccount, type TBindingKey } from "./bindings.service.ts";
import { discoverProvider, type TDiscoveryResult } from "./discovery.service.ts";
import type { TProviderKey, TProviderParsed, TProviderView } from "./federation.schemas.ts";
import { removeProvider, saveProvider } from "./providers.service.ts";

// The console's view of external providers: the same rules as the import and the REST API, an administrator acting.

export function createProvider(p: TProviderParsed, admin: TEventActor): Promise<TProviderView> {
  return saveProvider(p, "create", admin, adminNote(admin));
}

export function updateProvider(p: TProviderParsed, admin: TEventActor): Promise<TProviderView> {
  return saveProvider(p, "update", admin, adminNote(admin));
}

export function deleteProvider(key: TProviderKey, force: boolean, admin: TEventActor): Promise<void> {
  return removeProvider(key, force, admin, adminNote(admin));
}

/** "Test discovery": what the form's discovery URL serves now, before anything is saved. */
export function testDiscovery(discoveryUrl: string, issuer: string | undefined): Promise<TDiscoveryResult> {
  return discoverProvider(discoveryUrl, { expectedIssuer: issuer });
}

export async function userBindings(sub: string): Promise<TFederatedAccountV3[]> {
  return (await bindingsOf((await readAccount(sub)).id)).map(toFederatedAccountV3);
}

export async function unbindUserAccount(sub: string, key: TBindingKey, admin: TEventActor): Promise<void> {
  await unbindExternalAccount((await readAccount(sub)).id, key, admin, adminNote(admin));
}
