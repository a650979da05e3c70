import type { TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { describeTRPCError } from "../../server/trpc/errors.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { USER_SORTS, type TSortDir, type TUserSort } from "../../server/users/users-list.shared.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The console's users list pages every order by a keyset over (key, id): walking all pages, in
// either direction, with or without a search, must show every account once, in the order asked
// for, accounts without the key last; equal keys (names, e-mails, creation times, states) must not
// make a page repeat or skip anyone.

const callerFor = (id: string) => appRouter.createCaller({ session: { user: { id }, expires: "2999-01-01T00:00:00Z" } as Session });
type TCaller = ReturnType<typeof callerFor>;

/** Thirty accounts with ties and gaps: every third without an e-mail, names repeating (e-mails are unique). */
function people() {
  const family = ["Smith", "smith", "Adams", "Zhou", undefined];
  const given = ["Anna", "Boris", undefined];
  return Array.from({ length: 30 }, (_, i) => {
    const attributes: Record<string, unknown> = {};
    const f = family[i % family.length];
    const g = given[i % given.length];
    if (f) attributes.family_name = f;
    if (g) attributes.given_name = g;
    // Upper and lower case interleave: the order must not put every capital first.
    if (i % 3 !== 0) attributes.email = { value: i % 2 ? `P${29 - i}@Example.org` : `p${29 - i}@example.org`, vrf: false };
    return { sub: `sort-${String(i).padStart(2, "0")}`, attributes };
  });
}

type TRow = { id: string; login: string | null; name: string | null; email: string | null; created: number; locked: boolean };

/** The expected order, computed here from the stored rows: lower-cased text in code-point order, missing keys last, then the id. */
function expectedOrder(rows: TRow[], sort: TUserSort, dir: TSortDir): string[] {
  const keyOf = (r: TRow): string | number | null =>
    ({ sub: r.id, login: r.login, name: r.name, email: r.email, created: r.created, status: Number(r.locked) })[sort];
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const sign = dir === "asc" ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [ka, kb] = [keyOf(a), keyOf(b)];
      if (ka === null || kb === null) return ka === kb ? sign * cmp(a.id, b.id) : ka === null ? 1 : -1;
      return sign * (cmp(ka, kb) || cmp(a.id, b.id));
    })
    .map((r) => r.id);
}

/** Every page of the list, `limit` at a time, following nextCursor to the end. */
async function walk(caller: TCaller, input: { sort: TUserSort; dir: TSortDir; search?: string }, limit: number) {
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await caller.console.users.list({ ...input, after, limit });
    seen.push(...page.items.map((r) => r.sub));
    if (!page.nextCursor) return { seen, total: page.total };
    after = page.nextCursor;
  }
  throw new Error("the list did not end");
}

describe.each(DB_KINDS)("the console's users list in every order on %s", (kind) => {
  let t: TTestDatabase;
  let admin: TCaller;
  let rows: TRow[];

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    admin = callerFor(adminId);
    await importDocument({ users: people() }, {});
    // Ties in creation time and state, and a few more logins than the administrator's.
    const at = new Date("2026-12-01T10:00:00.123Z");
    for (let i = 0; i < 30; i++) {
      await t.db.prisma.user.update({
        where: { id: `sort-${String(i).padStart(2, "0")}` },
        data: { createdAt: new Date(at.getTime() + (i % 4) * 1000), locked: i % 5 === 1, login: i % 7 === 3 ? `Login-${29 - i}` : null },
      });
    }
    const stored = await t.db.prisma.user.findMany({ select: { id: true, login: true, attrs: true, createdAt: true, locked: true } });
    rows = stored.map((u) => {
      const a = u.attrs as { family_name?: string; given_name?: string; email?: { value: string } };
      const name = `${a.family_name ?? ""} ${a.given_name ?? ""}`.toLowerCase();
      return { id: u.id, login: u.login, name: name === " " ? null : name, email: a.email?.value.toLowerCase() ?? null, created: u.createdAt.getTime(), locked: u.locked };
    });
  });
  afterAll(async () => t?.close());

  for (const sort of USER_SORTS) {
    for (const dir of ["asc", "desc"] as const) {
      it(`pages through everyone by ${sort} ${dir}, each once and in order`, async () => {
        const { seen, total } = await walk(admin, { sort, dir }, 4);
        expect(total).toBe(rows.length);
        expect(seen).toEqual(expectedOrder(rows, sort, dir));
      });

      it(`pages through a search by ${sort} ${dir}, each match once and in order`, async () => {
        // "smith" matches both spellings of the family name, with and without e-mail, locked or not.
        const { seen, total } = await walk(admin, { sort, dir, search: "smith" }, 3);
        const matches = rows.filter((r) => r.name?.startsWith("smith"));
        expect(matches.length).toBeGreaterThan(6);
        expect(total).toBe(matches.length);
        expect(seen).toEqual(expectedOrder(matches, sort, dir));
      });
    }
  }

  it("puts accounts without an e-mail last in both directions", async () => {
    for (const dir of ["asc", "desc"] as const) {
      const { seen } = await walk(admin, { sort: "email", dir }, 50);
      const missing = rows.filter((r) => r.email === null).length;
      expect(seen.slice(-missing).every((id) => rows.find((r) => r.id === id)!.email === null), dir).toBe(true);
    }
  });

  it("refuses an unknown order, an unknown field and a cursor of another order as input, in the house's shape", async () => {
    // What the client receives is what the error formatter makes of the failure.
    const refusal = (input: unknown) =>
      admin.console.users.list(input as never).then(
        () => "accepted",
        (e: TRPCError) => `${e.code} ${describeTRPCError(e).data.appCode}`,
      );
    const page = await admin.console.users.list({ sort: "email", limit: 2 });
    for (const bad of [{ sort: "password_hash" }, { dir: "sideways" }, { orderBy: "email" }, { sort: "created", after: page.nextCursor }, { sort: "email", after: "not-a-cursor" }]) {
      expect(await refusal(bad), JSON.stringify(bad)).toBe("BAD_REQUEST request.invalid_values");
    }
  });
});
