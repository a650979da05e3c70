import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logoRoute } from "../../server/branding/branding.routes.ts";
import { patchBranding } from "../../server/branding/branding.repository.ts";
import { getBranding, readBranding, resetBranding, startBranding } from "../../server/branding/branding.service.ts";
import { publishChange } from "../../server/cache/change-bus.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { html } from "../../server/html/html.ts";
import { renderPage } from "../../server/html/layout.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { adminCaller, type TConsoleCaller } from "../support/console-caller.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa1d9d4b20000000049454e44ae426082", "hex");
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const settings = { productName: "Acme ID", accentColour: "#ffcc00", termsUrl: "https://acme.example/terms", privacyUrl: null };
const system = { subject: "test" };

/** The sign-in page's document as a visitor gets it now. */
const page = () => renderPage({ lang: "en", title: "Sign in", body: html`<h1>Sign in</h1>` });

/** What a refused call tells the console: its status, registry code and the fields it names. */
async function refusal(call: Promise<unknown>) {
  const e = await call.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(TRPCError);
  const t = e as TRPCError;
  const items = t.cause instanceof AppError ? (t.cause.details.items ?? []) : ((t.cause as unknown as { issues: { path: PropertyKey[] }[] }).issues ?? []).map((i) => ({ pos: i.path.join(".") }));
  return { code: t.code, fields: items.map((i) => i.pos).sort() };
}

const logo = (search = "") => logoRoute.run({ method: "GET", path: "/branding/logo", search, headers: new Headers(), readBody: async () => new Uint8Array() });

describe.each(DB_KINDS)("branding on %s", (kind) => {
  let t: TTestDatabase;
  let admin: TConsoleCaller;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    ({ admin } = await adminCaller(t, "203.0.113.30"));
    await startBranding();
  });
  afterAll(async () => t?.close());

  it("refuses a bad colour, a javascript: link, an SVG or oversized logo as 400s naming the field, and changes nothing", async () => {
    expect(await refusal(admin.console.branding.save({ ...settings, accentColour: "red" }))).toEqual({ code: "BAD_REQUEST", fields: ["accentColour"] });
    expect(await refusal(admin.console.branding.save({ ...settings, termsUrl: "javascript:alert(1)" }))).toEqual({ code: "BAD_REQUEST", fields: ["termsUrl"] });
    expect(await refusal(admin.console.branding.uploadLogo({ type: "image/png", data: SVG.toString("base64") }))).toEqual({ code: "BAD_REQUEST", fields: ["data"] });
    expect(await refusal(admin.console.branding.uploadLogo({ type: "image/svg+xml" as "image/png", data: SVG.toString("base64") }))).toEqual({ code: "BAD_REQUEST", fields: ["type"] });
    const big = Buffer.concat([PNG, Buffer.alloc(100 * 1024)]).toString("base64");
    expect(await refusal(admin.console.branding.uploadLogo({ type: "image/png", data: big }))).toEqual({ code: "BAD_REQUEST", fields: ["data"] });
    expect(await admin.console.branding.get()).toEqual({ productName: null, accentColour: null, termsUrl: null, privacyUrl: null, logo: null });
    expect(await t.db.prisma.branding.count()).toBe(0);
    expect(await t.db.prisma.securityEvent.count({ where: { type: "branding.changed" } })).toBe(0);
    expect(page()).toContain("<title>Sign in · Identity</title>");
  });

  it("an administrator's name, colour, links and logo show on the pages at once, the logo served by its version; the reset brings the built-in look back", async () => {
    await admin.console.branding.save(settings);
    const saved = await admin.console.branding.uploadLogo({ type: "image/png", data: PNG.toString("base64") });
    expect(saved).toMatchObject({ ...settings, logo: { type: "image/png", size: PNG.byteLength, url: expect.stringMatching(/^\/idp\/branding\/logo\?v=[\w-]{16}$/) } });
    const markup = page();
    expect(markup).toContain("<title>Sign in · Acme ID</title>");
    expect(markup).toContain(`<img src="${saved.logo!.url}" alt="Acme ID">`);
    expect(markup).toContain('href="https://acme.example/terms"');

    const served = await logo(`?v=${saved.logo!.version}`);
    expect(served.status).toBe(200);
    expect(served.headers).toMatchObject({ "content-type": "image/png", "x-content-type-options": "nosniff", "cache-control": "public, max-age=31536000, immutable", etag: `"${saved.logo!.version}"` });
    expect(Buffer.from(served.body as Uint8Array)).toEqual(PNG);
    expect((await logo("?v=old")).headers["cache-control"]).toBe("no-cache");

    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "branding.changed" }, orderBy: { id: "asc" }, select: { params: true } });
    expect(events.map((e) => (e.params as { change: string }).change)).toEqual(["settings", "logo"]);

    await admin.console.branding.removeLogo();
    expect(page()).not.toContain("<img");
    expect((await logo()).status).toBe(404);
    await admin.console.branding.reset();
    expect(page()).toContain("<title>Sign in · Identity</title>");
    expect(await getBranding()).toEqual({ productName: null, accentColour: null, termsUrl: null, privacyUrl: null, logo: null });
  });

  it("a change another process made is seen once the change bus tells of it", async () => {
    await patchBranding({ productName: "Written elsewhere" });
    // Still the cached branding: nothing told this process yet.
    expect((await readBranding()).branding.productName).toBeNull();
    await publishChange("branding");
    expect((await readBranding()).branding.productName).toBe("Written elsewhere");
    expect(page()).toContain("<title>Sign in · Written elsewhere</title>");
    await resetBranding(system);
  });

  it("only an administrator may change it", async () => {
    const { appRouter } = await import("../../server/trpc/root.ts");
    const nobody = appRouter.createCaller({ session: null });
    await expect(nobody.console.branding.save(settings)).rejects.toBeInstanceOf(TRPCError);
    expect(await t.db.prisma.branding.count()).toBe(0);
  });

  it("imports branding with its logo: created, then unchanged, then back to the built-in look; a bad logo refused by its path", async () => {
    const doc = { branding: { ...settings, logo: { type: "image/png", data: PNG.toString("base64") } } };
    expect((await importDocument(doc, system)).branding).toEqual({ created: ["default"], updated: [], unchanged: [] });
    expect(await getBranding()).toMatchObject({ productName: "Acme ID", logo: { type: "image/png", size: PNG.byteLength } });
    expect((await importDocument(doc, system)).branding).toEqual({ created: [], updated: [], unchanged: ["default"] });
    expect((await importDocument({ branding: {} }, system)).branding).toEqual({ created: [], updated: ["default"], unchanged: [] });
    expect(await getBranding()).toEqual({ productName: null, accentColour: null, termsUrl: null, privacyUrl: null, logo: null });
    const bad = await importDocument({ branding: { logo: { type: "image/png", data: SVG.toString("base64") } } }, system).then(() => undefined, (e: unknown) => e as AppError);
    expect(bad?.code).toBe("import.invalid_document");
    expect(bad?.details.items?.map((i) => i.pos)).toEqual(["$.branding.logo.data"]);
  });
});
