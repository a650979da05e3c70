import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import type { TProviderKey } from "./federation.schemas.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";

export type TOfferedProvider = TProviderKey & { label: string };

// The providers the sign-in form offers were a query on every form shown (one of the 19 statements of
// a sign-in, bench/README.md), and change only in the console or by import: held in every process,
// dropped through the change bus. Only what the form shows is held, never a provider's secret.
const OFFERED_TOPIC = "federation-offered-providers";
const cache = keyedCache<TOfferedProvider[]>(OFFERED_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 1 });

export function cachedOfferedProviders(load: () => Promise<TOfferedProvider[]>): TMaybePromise<TOfferedProvider[]> {
  return cache.read("offered", load);
}

/** After providers changed (committed): every process reads what its forms offer again. */
export function publishProvidersChange(): Promise<void> {
  return publishChange(OFFERED_TOPIC);
}
