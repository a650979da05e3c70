import type { TClientRow } from "./clients.repository.ts";
import type { TClientView } from "./clients.schemas.ts";

/** The only way a client leaves the service: hashes are dropped, presence of a REST password kept. */
export function toClientView(row: TClientRow): TClientView {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    userScopes: row.userScopes,
    redirectUris: row.redirectUris,
    tlsCNs: row.tlsCns,
    enabled: row.enabled,
    hasRestPassword: row.restPasswordHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
