// The events page keeps its filter in the URL (?sub=…&type=…&from=…), so a filtered view can be
// reloaded, linked from a user's page, and exported with the same query.

export const FILTER_FIELDS = ["sub", "client", "type", "ip", "from", "to"] as const;
export type TFilterField = (typeof FILTER_FIELDS)[number];
/** Field → value; `from` and `to` are ISO 8601 instants. Absent or empty means "any". */
export type TEventFilterValues = Partial<Record<TFilterField, string>>;

/** The query string of a filter, without the "?"; empty fields are left out. */
export function filterQuery(filter: TEventFilterValues): string {
  const params = new URLSearchParams();
  for (const f of FILTER_FIELDS) {
    const v = filter[f]?.trim();
    if (v) params.set(f, v);
  }
  return params.toString();
}

export function eventsHref(filter: TEventFilterValues): string {
  const query = filterQuery(filter);
  return `/console/events${query ? `?${query}` : ""}`;
}
