import { Answer, type TAnswer } from "../../http/exchange.ts";
import { SEARCH_DEFAULT_LIMIT, type TSearchPage } from "../group-search.service.ts";

// How the v3 group searches answer a page, and how their description says so.

/** The header that tells whether another page follows (the body is the bare list the v3 reads use). */
export const MORE_HEADER = "x-has-more";

/** A page as the answer: the list, and `X-Has-More: true|false`. */
export function pageResponse<T, R>(page: TSearchPage<T>, map: (item: T) => R): TAnswer {
  return Answer.json(page.items.map(map), 200, { "cache-control": "no-store", [MORE_HEADER]: String(page.more) });
}

export const PAGING_DESC =
  `Ordered by the RQL's sort(), then by id, so pages are stable; ${SEARCH_DEFAULT_LIMIT} rows unless limit(count[,offset]) says otherwise (at most 1000). ` +
  "The header `X-Has-More: true` says another page follows (ask for limit(count,offset+count)); `false` that this is the last.";
