import type { TEventActor } from "../audit/audit.service.ts";
import { AUTH_APPS } from "../auth/apps.ts";
import { getConfig } from "../config/config.ts";
import { handOutBind } from "../federation/external-auth/index.ts";
import { bindingsOf, unbindExternalAccount, type TBindingKey } from "../federation/bindings.service.ts";
import { ZFpType, type TProviderKey } from "../federation/federation.schemas.ts";
import { findProviders } from "../federation/providers.service.ts";
import { providerLabel } from "../federation/providers.service.ts";
import { readAccount } from "../users/users.service.ts";

// The portal's "Linked accounts": the person's own bindings, adapters over the same rules as the
// REST API (bindings.service.ts) and the redirect flow of server/federation/external-auth.

/** The page the browser comes back to from a provider, with the outcome in its query. */
export const LINKED_ACCOUNTS_PAGE = "/account/linked-accounts";

export type TLinkedAccounts = {
  accounts: { fpType: string; fpName: string; sid: string; userName: string | null }[];
  /** Every configured provider: one can be linked whether or not the sign-in page offers it. */
  providers: (TProviderKey & { label: string })[];
};

export async function listOwnLinkedAccounts(sub: string): Promise<TLinkedAccounts> {
  const account = await readAccount(sub);
  const [accounts, providers] = await Promise.all([bindingsOf(account.id), findProviders()]);
  return { accounts, providers: providers.map((p) => ({ fpType: ZFpType.parse(p.fpType), fpName: p.fpName, label: providerLabel(p) })) };
}

/** "Unlink": the binding goes (with the tokens stored for it); another account's is federation.binding_not_found. */
export async function unlinkOwnAccount(sub: string, key: TBindingKey, actor: TEventActor): Promise<void> {
  await unbindExternalAccount((await readAccount(sub)).id, key, actor, { via: "portal" });
}

/**
 * "Link": the service's page that sends this browser (signed in to the portal as this user) to the
 * provider; the callback binds and comes back to the page. The person pressed Link: no confirmation.
 */
export async function startOwnLink(sub: string, provider: TProviderKey, actor: TEventActor): Promise<{ redirectTo: string }> {
  const account = await readAccount(sub);
  return handOutBind({ provider, userId: account.id, clientId: actor.clientId ?? AUTH_APPS.portal.clientId, returnTo: getConfig().issuer + LINKED_ACCOUNTS_PAGE });
}
