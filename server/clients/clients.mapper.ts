import type { TClientAuthRow, TClientRow, TClientWrite } from "./clients.repository.ts";
import { appKindOf, defaultGrantTypes, type TClientInput, type TClientView } from "./clients.schemas.ts";

/** The only way a client leaves the service: hashes are dropped, presence of a REST password kept. */
export function toClientView(row: TClientRow): TClientView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    kind: appKindOf(row),
    firstParty: row.firstParty,
    pkceOptional: row.pkceOptional,
    grantTypes: row.grantTypes,
    scopes: row.scopes,
    userScopes: row.userScopes,
    redirectUris: row.redirectUris,
    postLogoutRedirectUris: row.postLogoutRedirectUris,
    tokenLifetimes: { accessToken: row.accessTokenTtl, refreshToken: row.refreshTokenTtl, idToken: row.idTokenTtl },
    tlsCNs: row.tlsCns,
    dynamicRegistration: { softwareIds: row.dynSoftwareIds },
    enabled: row.enabled,
    hasRestPassword: row.restPasswordHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The stored columns a description (import document or console form) sets, credentials aside. */
export function toClientWrite(c: Omit<TClientInput, "id" | "secret" | "restPassword" | "attributes">): Omit<TClientWrite, "enabled" | "secretHash" | "restPasswordHash"> {
  const type = c.type ?? "confidential";
  return {
    name: c.name,
    type,
    firstParty: c.firstParty ?? false,
    pkceOptional: c.pkceOptional ?? false,
    grantTypes: c.grantTypes ?? defaultGrantTypes(type),
    scopes: c.scopes,
    userScopes: c.userScopes ?? [],
    redirectUris: c.redirectUris ?? [],
    postLogoutRedirectUris: c.postLogoutRedirectUris ?? [],
    accessTokenTtl: c.tokenLifetimes?.accessToken ?? null,
    refreshTokenTtl: c.tokenLifetimes?.refreshToken ?? null,
    idTokenTtl: c.tokenLifetimes?.idToken ?? null,
    tlsCns: c.tlsCNs ?? [],
    dynSoftwareIds: c.dynamicRegistration?.softwareIds ?? [],
  };
}

/**
 * A dynamically registered instance acts as its parent, with its own id, name and credentials: it
 * signs users in wherever the parent may, and never obtains system scopes of its own (its secret, if
 * it has one, lives on a device). Resolved at every read, so a change of the parent reaches its instances at once.
 */
export function inheritFromParent(instance: TClientAuthRow, parent: TClientAuthRow): TClientAuthRow {
  return {
    ...instance,
    enabled: instance.enabled && parent.enabled,
    firstParty: parent.firstParty,
    // An instance is a public client on a device: PKCE, whatever its parent may skip.
    pkceOptional: false,
    grantTypes: parent.grantTypes.filter((g) => g !== "client_credentials"),
    scopes: [],
    userScopes: parent.userScopes,
    redirectUris: parent.redirectUris,
    postLogoutRedirectUris: parent.postLogoutRedirectUris,
    accessTokenTtl: parent.accessTokenTtl,
    refreshTokenTtl: parent.refreshTokenTtl,
    idTokenTtl: parent.idTokenTtl,
    tlsCns: [],
    restPasswordHash: null,
    dynSoftwareIds: [],
  };
}
