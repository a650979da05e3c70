/**
 * A new application's secret, carried from the creation form to the application's page within this
 * tab's memory: never in the URL, storage or the query cache. The page takes it into its own state
 * and it is dropped here when the page goes.
 */
let pending: { id: string; secret: string } | null = null;

export function handOverSecret(id: string, secret: string): void {
  pending = { id, secret };
}

export function peekSecret(id: string): string | null {
  return pending?.id === id ? pending.secret : null;
}

export function dropSecret(id: string): void {
  if (pending?.id === id) pending = null;
}
