import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { createSp, deleteSp, getSpSettings, listSps, updateSp } from "../../server/saml/sps/saml-console.service.ts";
import { makeSpKeys, newServiceProvider } from "../support/saml-sp.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The samlServiceProviders section of the import document, and what maintenance clears of SAML.

const keys = makeSpKeys("files.example");
const metadata = newServiceProvider({ entityId: "https://files.example/saml", acsUrl: "https://files.example/acs", entryPoint: "https://idp.test/sso", keys, decryptionPvk: keys.key }).generateServiceProviderMetadata(keys.cert, keys.cert);
const files = { id: "files", name: "Files", metadataXml: metadata };

// The provider's metadata published over HTTP on loopback (which the unit tests' IDP_OUTBOUND_ALLOW allows).
const publisher = createServer((req, res) => (req.url === "/md" ? res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(metadata) : res.writeHead(404).end()));
let metadataUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => publisher.listen(0, "127.0.0.1", resolve));
  metadataUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/md`;
});
afterAll(() => new Promise<void>((resolve) => publisher.close(() => resolve())));

const itemsOf = async (p: Promise<unknown>) =>
  p.then(
    () => [],
    (e: unknown) => (e instanceof AppError ? (e.details.items ?? []).map((i) => `${i.pos}: ${i.desc}`) : [String(e)]),
  );

describe.each(DB_KINDS)("SAML service providers on %s", (kind) => {
  let t: TTestDatabase;
  beforeEach(async () => {
    t = await installTestDatabase(kind);
  });
  afterEach(async () => t.close());

  it("imports a provider from its metadata, with its row among the clients, and a second import changes nothing", async () => {
    const first = await importDocument({ samlServiceProviders: [files] }, {});
    expect(first.samlServiceProviders).toEqual({ created: ["files"], updated: [], unchanged: [] });
    const sp = await t.db.prisma.samlServiceProvider.findUniqueOrThrow({ where: { id: "files" } });
    expect(sp).toMatchObject({ entityId: "https://files.example/saml", acs: [{ index: 1, location: "https://files.example/acs", isDefault: true }], assertionEncryption: "aes256-gcm", requireSignedRequests: true, allowIdpInitiated: false, nameIdFormat: "email" });
    expect(sp.signingCerts).toHaveLength(1);
    expect(await t.db.prisma.client.findUniqueOrThrow({ where: { id: "files" }, select: { protocol: true, secretHash: true, grantTypes: true, redirectUris: true, name: true } })).toEqual({ protocol: "saml", secretHash: null, grantTypes: [], redirectUris: [], name: "Files" });
    const second = await importDocument({ samlServiceProviders: [files] }, {});
    expect(second.samlServiceProviders).toEqual({ created: [], updated: [], unchanged: ["files"] });
    const renamed = await importDocument({ samlServiceProviders: [{ ...files, name: "Shared files", allowIdpInitiated: true }] }, {});
    expect(renamed.samlServiceProviders).toEqual({ created: [], updated: ["files"], unchanged: [] });
  });

  it("refuses what cannot be a provider, naming where, and changes nothing", async () => {
    await importDocument({ clients: [{ id: "rp", name: "RP", secret: "rp-secret-123456", scopes: [] }] }, {});
    const refused = await Promise.all([
      itemsOf(importDocument({ samlServiceProviders: [{ ...files, id: "rp" }] }, {})),
      itemsOf(importDocument({ samlServiceProviders: [{ ...files, metadataXml: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' }] }, {})),
      itemsOf(importDocument({ samlServiceProviders: [{ id: "hand", name: "Hand", entityId: "https://hand.example", acsUrls: ["http://hand.example/acs"], requireSignedRequests: false }] }, {})),
      itemsOf(importDocument({ samlServiceProviders: [{ id: "hand", name: "Hand", entityId: "https://hand.example", acsUrls: ["https://hand.example/acs"] }] }, {})),
      itemsOf(importDocument({ samlServiceProviders: [files, { ...files, id: "files2" }] }, {})),
      itemsOf(importDocument({ samlServiceProviders: [{ id: "weak", name: "Weak", entityId: "https://weak.example", acsUrls: ["https://weak.example/acs"], signingCerts: [makeSpKeys("weak.example", 1024).cert] }] }, {})),
    ]);
    expect(refused[0]).toEqual(["$.samlServiceProviders[0].id: rp is the id of an OAuth application"]);
    expect(refused[1]).toEqual(["$.samlServiceProviders[0].metadataXml: the SAML document is not accepted: document type declarations are not accepted"]);
    expect(refused[2]).toEqual(["$.samlServiceProviders[0].acsUrls[0]: must be https (http only on loopback)"]);
    expect(refused[3]![0]).toMatch(/^\$.samlServiceProviders\[0\]\.requireSignedRequests: signed requests are required, but no signing certificate is given/);
    expect(refused[4]).toEqual(["$.samlServiceProviders[1]: entity ID https://files.example/saml is given twice"]);
    expect(refused[5]).toEqual(["$.samlServiceProviders[0].signingCerts[0]: must be an RSA certificate (PEM or base64 DER) of at least 2048 bits: an RSA key of at least 2048 bits is required"]);
    expect(await t.db.prisma.samlServiceProvider.count()).toBe(0);
    // Nor may the clients section turn a provider's row into an OAuth client.
    await importDocument({ samlServiceProviders: [files] }, {});
    expect(await itemsOf(importDocument({ clients: [{ id: "files", name: "Files", secret: "files-secret-12345", scopes: [] }] }, {}))).toEqual(["$.clients[0].id: files is a SAML service provider"]);
  });

  it("maintenance drops request IDs and parked requests past use, and keeps the others", async () => {
    await importDocument({ samlServiceProviders: [files] }, {});
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    await t.db.prisma.samlRequestId.createMany({ data: [{ spId: "files", requestId: "_old", expiresAt: past }, { spId: "files", requestId: "_new", expiresAt: future }] });
    await t.db.prisma.samlPendingRequest.createMany({ data: [{ handleHash: "old", request: {}, expiresAt: past }, { handleHash: "new", request: {}, expiresAt: future }] });
    expect((await runMaintenance()).samlRequests).toBe(2);
    expect((await t.db.prisma.samlRequestId.findMany({ select: { requestId: true } })).map((r) => r.requestId)).toEqual(["_new"]);
    expect((await t.db.prisma.samlPendingRequest.findMany({ select: { handleHash: true } })).map((r) => r.handleHash)).toEqual(["new"]);
  });

  it("adds a provider from the console, refuses a taken id or entity ID, lists it without its certificates, and deletes it", async () => {
    await importDocument({ clients: [{ id: "rp", name: "RP", secret: "rp-secret-123456", scopes: [] }] }, {});
    const input = { id: "files", name: "Files", metadataXml: metadata, requireSignedRequests: true, allowIdpInitiated: false, askConsent: false };
    const created = await createSp(input, { subject: "admin" });
    expect(created).toMatchObject({ id: "files", name: "Files", entityId: "https://files.example/saml", acsUrls: ["https://files.example/acs"], signingCerts: 1, hasEncryptionCert: true, assertionEncryption: "aes256-gcm" });
    expect(JSON.stringify(await listSps())).not.toContain("BEGIN CERTIFICATE");
    const codeOf = (p: Promise<unknown>) => p.then(() => "created", (e: AppError) => e.code);
    expect(await codeOf(createSp({ ...input, id: "rp" }, {}))).toBe("saml.sp_exists");
    expect(await codeOf(createSp({ ...input, id: "files2" }, {}))).toBe("saml.sp_exists");
    expect(await codeOf(createSp({ ...input, id: "bad", metadataXml: "<x/>" }, {}))).toBe("saml.metadata_invalid");
    await deleteSp("files", { subject: "admin" });
    expect(await listSps()).toEqual([]);
    expect(await t.db.prisma.client.count({ where: { id: "files" } })).toBe(0);
    expect(await codeOf(deleteSp("files", {}))).toBe("saml.sp_not_found");
    // Not an OAuth client's row.
    expect(await codeOf(deleteSp("rp", {}))).toBe("saml.sp_not_found");
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: { startsWith: "saml.sp_" } }, orderBy: { id: "asc" }, select: { type: true, subject: true } });
    expect(events).toEqual([{ type: "saml.sp_created", subject: "admin" }, { type: "saml.sp_deleted", subject: "admin" }]);
  });

  it("adds a provider typed by hand in the console, shows its settings back, saves them, and keeps its NameIDs", async () => {
    const other = makeSpKeys("hand.example");
    const hand = { id: "hand", name: "Hand", entityId: "https://hand.example", acsUrls: ["https://hand.example/acs", "https://hand.example/acs2"], signingCerts: [other.cert], singleLogoutUrl: "https://hand.example/slo", requireSignedRequests: true, allowIdpInitiated: false, askConsent: false };
    expect(await createSp(hand, { subject: "admin" })).toMatchObject({ id: "hand", source: "hand", acsUrls: hand.acsUrls, sloUrls: ["https://hand.example/slo"], signingCerts: 1, askConsent: false });
    const shown = await getSpSettings("hand");
    expect(shown).toMatchObject({ id: "hand", name: "Hand", enabled: true, entityId: "https://hand.example", acsUrls: hand.acsUrls, singleLogoutUrl: "https://hand.example/slo", nameIdFormat: "persistent", assertionEncryption: "off", attributes: [] });
    expect(shown.signingCerts![0]).toContain("BEGIN CERTIFICATE");
    await importDocument({ users: [{ sub: "u1", attributes: { given_name: "Uno" } }] }, {});
    await t.db.prisma.samlPersistentId.create({ data: { spId: "hand", userId: "u1", value: "kept" } });

    // Saved with what the form shows, changed: a new name, consent asked, attributes, the second ACS first.
    const { enabled: _, ...form } = shown;
    const saved = await updateSp({ ...form, name: "Hand tools", acsUrls: [hand.acsUrls[1]!, hand.acsUrls[0]!], askConsent: true, attributes: [{ name: "mail", from: "email" }] }, { subject: "admin" });
    expect(saved).toMatchObject({ name: "Hand tools", askConsent: true, acsUrls: [hand.acsUrls[1], hand.acsUrls[0]] });
    // Asking consent is what the provider's row among the applications says.
    expect(await t.db.prisma.client.findUniqueOrThrow({ where: { id: "hand" }, select: { firstParty: true, name: true } })).toEqual({ firstParty: false, name: "Hand tools" });
    expect((await getSpSettings("hand")).attributes).toEqual([{ name: "mail", from: "email" }]);
    expect(await t.db.prisma.samlPersistentId.findMany({ where: { spId: "hand" }, select: { userId: true, value: true } })).toEqual([{ userId: "u1", value: "kept" }]);

    const codeOf = (p: Promise<unknown>) => p.then(() => "saved", (e: AppError) => e.code);
    // Another provider's entity ID, an unknown provider, a setting that cannot be: refused, nothing changed.
    await createSp({ ...files, requireSignedRequests: true, allowIdpInitiated: false, askConsent: false }, {});
    expect(await codeOf(updateSp({ ...form, entityId: "https://files.example/saml" }, {}))).toBe("saml.sp_exists");
    expect(await codeOf(updateSp({ ...form, id: "nobody" }, {}))).toBe("saml.sp_not_found");
    expect(await itemsOf(updateSp({ ...form, acsUrls: ["https://hand.example/acs", "http://hand.example/acs"] }, {}))).toEqual(["acsUrls.1: must be https (http only on loopback)"]);
    expect(await itemsOf(updateSp({ ...form, signingCerts: [], requireSignedRequests: true }, {}))).toEqual([expect.stringMatching(/^requireSignedRequests: signed requests are required/)]);
    expect(await itemsOf(updateSp({ ...form, assertionEncryption: "aes128-gcm" }, {}))).toEqual(["assertionEncryption: assertions cannot be encrypted: no encryption certificate is given"]);
    expect((await getSpSettings("hand")).name).toBe("Hand tools");
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "saml.sp_updated" }, select: { subject: true, params: true } });
    expect(events).toEqual([{ subject: "admin", params: { sp: "hand", entityId: "https://hand.example" } }]);
  });

  it("lets one of several racing creates win, the others hear saml.sp_exists, and never writes an OAuth client's row", async () => {
    await importDocument({ clients: [{ id: "rp", name: "RP", secret: "rp-secret-123456", scopes: [] }] }, {});
    const rpBefore = await t.db.prisma.client.findUniqueOrThrow({ where: { id: "rp" }, select: { name: true, firstParty: true, protocol: true } });
    const base = { name: "Files", metadataXml: metadata, requireSignedRequests: true, allowIdpInitiated: false, askConsent: false };
    const outcomes = await Promise.all(
      [...Array(6).keys()].map((i) => createSp({ ...base, id: i % 2 ? "files" : `files${i}` }, {}).then(() => "created", (e: AppError) => e.code ?? String(e))),
    );
    // One id and one entity ID: exactly one provider, every other call a 409, none a 500.
    expect(outcomes.filter((o) => o === "created")).toHaveLength(1);
    expect(outcomes.filter((o) => o !== "created")).toEqual(Array(5).fill("saml.sp_exists"));
    expect(await t.db.prisma.samlServiceProvider.count()).toBe(1);
    // The OAuth client's id: refused on create, not found on update, its row as it was.
    expect(await createSp({ ...base, id: "rp", metadataXml: undefined, entityId: "https://rp.example", acsUrls: ["https://rp.example/acs"], requireSignedRequests: false }, {}).catch((e: AppError) => e.code)).toBe("saml.sp_exists");
    expect(await updateSp({ ...base, id: "rp", metadataXml: undefined, entityId: "https://rp.example", acsUrls: ["https://rp.example/acs"], requireSignedRequests: false }, {}).catch((e: AppError) => e.code)).toBe("saml.sp_not_found");
    expect(await t.db.prisma.client.findUniqueOrThrow({ where: { id: "rp" }, select: { name: true, firstParty: true, protocol: true } })).toEqual(rpBefore);
    expect(await t.db.prisma.samlServiceProvider.count({ where: { id: "rp" } })).toBe(0);
  });

  it("fetches metadata from a URL under the outbound rules, in the import and in the console", async () => {
    const imported = await importDocument({ samlServiceProviders: [{ id: "files", name: "Files", metadataUrl }] }, {});
    expect(imported.samlServiceProviders.created).toEqual(["files"]);
    expect(await t.db.prisma.samlServiceProvider.findUniqueOrThrow({ where: { id: "files" }, select: { entityId: true, metadataUrl: true } })).toEqual({ entityId: "https://files.example/saml", metadataUrl });
    const refusedAt = async (url: string) => itemsOf(importDocument({ samlServiceProviders: [{ id: "other", name: "Other", metadataUrl: url }] }, {}));
    expect(await refusedAt("http://files.example/md")).toEqual(["$.samlServiceProviders[0].metadataUrl: the service provider's metadata cannot be fetched: https is required (http only on a loopback address)"]);
    expect((await refusedAt("https://10.0.0.1/md"))[0]).toMatch(/^\$\.samlServiceProviders\[0\]\.metadataUrl: the service provider's metadata cannot be fetched: 10\.0\.0\.1 is a private, loopback or link-local address/);
    expect(await refusedAt(metadataUrl.replace("/md", "/missing"))).toEqual(["$.samlServiceProviders[0].metadataUrl: the service provider's metadata cannot be fetched: the address answered 404"]);
    await deleteSp("files", {});
    const created = await createSp({ id: "files", name: "Files", metadataUrl, requireSignedRequests: true, allowIdpInitiated: false, askConsent: false }, {});
    expect(created.entityId).toBe("https://files.example/saml");
  });
});
