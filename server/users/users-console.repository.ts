import { getPrisma } from "../db/index.ts";
import { joinSql, sql, type TSql } from "../db/sql.ts";
import type { TListPosition } from "./users-list-cursor.ts";
import type { TSortDir, TUserSort } from "./users-list.shared.ts";

/**
 * How each order of the list reads its key. The expressions are those of the indexes of migration
 * 20261207000300_users_sort_indexes, word for word (the planner matches them by shape). Texts
 * compare in "C" order, names and e-mails lower-cased, so both databases agree on the order
 * whatever their default collation. `nullable`: a key some
 * accounts lack, which then come last in either direction.
 */
const KEYS: Record<Exclude<TUserSort, "sub">, { expr: TSql; nullable: boolean }> = {
  login: { expr: sql`(u.login COLLATE "C")`, nullable: true },
  name: { expr: sql`(NULLIF(lower(COALESCE(u.attrs ->> 'family_name', '') || ' ' || COALESCE(u.attrs ->> 'given_name', '')), ' ') COLLATE "C")`, nullable: true },
  email: { expr: sql`(lower(u.attrs #>> '{email,value}') COLLATE "C")`, nullable: true },
  created: { expr: sql`u.created_at`, nullable: false },
  status: { expr: sql`u.locked`, nullable: false },
};

export type TPageRow = { id: string; key: TListPosition["key"] };
type TPageQuery = { like?: string; sort: TUserSort; dir: TSortDir; after?: TListPosition; limit: number };

const keyOf = (sort: TUserSort) => (sort === "sub" ? { expr: sql`u.id`, nullable: false } : KEYS[sort]);
const orderOf = (q: TPageQuery) => (q.dir === "asc" ? { cmp: sql`>`, dir: sql`ASC` } : { cmp: sql`<`, dir: sql`DESC` });

/**
 * The accounts a search text matches: searchable attribute values (a prefix through the
 * text_pattern_ops index, or from three characters anywhere through the trigram index, so it stays
 * fast at a million accounts) and an administrator's login (the bootstrap administrator has no other
 * attribute to be found by).
 */
const matching = (like: string) => sql`
  SELECT user_id FROM user_attr_values WHERE value LIKE ${like}
  UNION
  SELECT id FROM users WHERE login IS NOT NULL AND lower(login) LIKE ${like}`;

/**
 * A page of the whole list: a keyset run over the order's index from the cursor on, forward for
 * ascending and backward for descending. For a key some accounts lack, a second run over those
 * follows the first (a cursor among them has passed every account with one); the page is ordered by
 * run, since a UNION ALL need not keep its parts' order.
 */
function wholeListPage(q: TPageQuery): TSql {
  const { expr, nullable } = keyOf(q.sort);
  const { cmp, dir } = orderOf(q);
  const at = q.after;
  const run = (part: TSql, where: TSql[]) =>
    sql`(SELECT u.id, ${expr} AS key, ${part} AS part FROM users u WHERE ${joinSql(where, " AND ")} ORDER BY ${expr} ${dir}, u.id ${dir} LIMIT ${q.limit})`;
  // The id order's key is the id itself: a row comparison of it with itself would hide the bound from the index.
  const past = !at ? sql`TRUE` : q.sort === "sub" ? sql`u.id ${cmp} ${at.id}` : sql`(${expr}, u.id) ${cmp} (${at.key}, ${at.id})`;
  const runs = !nullable
    ? [run(sql`0`, [past])]
    : [
        ...(at?.key === null ? [] : [run(sql`0`, [sql`${expr} IS NOT NULL`, past])]),
        run(sql`1`, [sql`${expr} IS NULL`, at?.key === null ? sql`u.id ${cmp} ${at.id}` : sql`TRUE`]),
      ];
  return sql`SELECT id, key FROM (${joinSql(runs, " UNION ALL ")}) page ORDER BY part, key ${dir}, id ${dir} LIMIT ${q.limit}`;
}

/**
 * A page of a search: the keys of every match, then the page among them. Its cost follows the number
 * of matches, whatever the order; a keyset over an order's index with the search as a filter could
 * walk most of the index for a rare match, and the planner misjudges a row comparison on a key of
 * few values (the state) badly enough to loop over the matches once per account.
 */
function searchPage(q: TPageQuery & { like: string }): TSql {
  const { expr } = keyOf(q.sort);
  const { cmp, dir } = orderOf(q);
  const at = q.after;
  // NULLS LAST in both directions, as the whole list's page has them.
  const past = !at ? sql`TRUE` : at.key === null ? sql`key IS NULL AND id ${cmp} ${at.id}` : sql`(key IS NULL OR (key, id) ${cmp} (${at.key}, ${at.id}))`;
  return sql`
    WITH m AS MATERIALIZED (SELECT u.id, ${expr} AS key FROM users u WHERE u.id IN (${matching(q.like)}))
    SELECT id, key FROM m WHERE ${past} ORDER BY key ${dir} NULLS LAST, id ${dir} LIMIT ${q.limit}`;
}

/**
 * One console page of accounts in the order asked for, each with its sort key (for the next cursor),
 * and the total for the same search.
 */
export async function findAccountPage(q: TPageQuery): Promise<{ rows: TPageRow[]; total: number }> {
  const prisma = await getPrisma();
  const page = prisma.$queryRaw<TPageRow[]>(q.like ? searchPage({ ...q, like: q.like }) : wholeListPage(q));
  const total = q.like
    ? prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM (${matching(q.like)}) matched`.then((r) => Number(r[0]?.n ?? 0))
    : prisma.user.count();
  const [rows, n] = await Promise.all([page, total]);
  return { rows, total: n };
}

/** The logins of those of `ids` that have one (administrators), by id. */
export async function findLogins(ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const prisma = await getPrisma();
  const rows = await prisma.user.findMany({ where: { id: { in: ids }, login: { not: null } }, select: { id: true, login: true } });
  return new Map(rows.map((r) => [r.id, r.login!]));
}

/**
 * Accounts in all, made since `since`, and locked: one pass over the table (no index serves a count
 * of everything), 100,000 rows in tens of milliseconds on either database.
 */
export async function countAccounts(since: Date): Promise<{ total: number; created: number; locked: number }> {
  const prisma = await getPrisma();
  const [row] = await prisma.$queryRaw<{ total: number; created: number; locked: number }[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE created_at >= ${since})::int AS created,
           count(*) FILTER (WHERE locked)::int AS locked
    FROM users`;
  return row!;
}
