import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { aaguidBytes, makeAttestationKey, metadataPayload, type TAttestationKey } from "../support/attestation-certs.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { consoleMutation, consoleSignIn, sessionCookie, startAppSignIn, trpcCall } from "../support/console.ts";
import { base } from "../support/http.ts";
import { authorizeThrough } from "../support/oidc.ts";
import { SoftAuthenticator, type TBend } from "../support/soft-authenticator.mjs";

// The passkey policy over HTTP: set in the console's tRPC calls, applied to registrations in the
// portal by software authenticators that answer with "none" or a "packed" attestation under a test
// vendor's root listed in uploaded FIDO metadata. The policy is the shared server's: put back at the end.

async function portalSession(identifier: string, password: string): Promise<string> {
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  await authorizeThrough(browser, await startAppSignIn(browser, base(), "portal"), { identifier, password });
  return sessionCookie(browser, "portal")!;
}

async function portalPerson(): Promise<{ sub: string; cookie: string }> {
  const account = await createUserWithPassword();
  return { sub: account.sub, cookie: await portalSession(account.sub, account.password) };
}

const origin = () => new URL(base()).origin;
const rpId = () => new URL(base()).hostname;

async function register(person: { cookie: string }, authenticator: SoftAuthenticator, bend: TBend = {}) {
  const started = await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation");
  if (!started.body.result) return started;
  return trpcCall(base(), person.cookie, "portal.passkeys.finish", { answer: authenticator.register(started.body.result.data, bend), name: "Key" }, "mutation");
}
const appCode = (r: { body: { error?: { data: { appCode?: string } } } }) => r.body.error?.data.appCode;

describe("the passkey policy", () => {
  let admin: string;
  const listed = { aaguid: randomUUID(), key: undefined as unknown as TAttestationKey };
  const unlisted = { aaguid: randomUUID(), key: undefined as unknown as TAttestationKey };
  const save = (policy: Record<string, unknown>) => trpcCall(base(), admin, "console.passkeyPolicy.save", policy, "mutation");

  beforeAll(async () => {
    admin = await consoleSignIn(base(), "admin", inject("adminPassword"));
    [listed.key, unlisted.key] = await Promise.all([makeAttestationKey("Listed Vendor"), makeAttestationKey("Other Vendor")]);
  });
  afterAll(async () => {
    await consoleMutation(base(), admin, "console.passkeyPolicy.save", {});
  });

  it("refuses registration while passkeys are not offered, and says so to the portal", async () => {
    const person = await portalPerson();
    expect((await register(person, new SoftAuthenticator(origin(), rpId()))).status).toBe(200);
    expect((await save({ offered: false })).status).toBe(200);
    expect((await trpcCall(base(), person.cookie, "portal.passkeys.offered")).body.result!.data).toBe(false);
    const refused = await register(person, new SoftAuthenticator(origin(), rpId()));
    expect(refused.status).toBe(403);
    expect(appCode(refused)).toBe("passkeys.not_offered");
    // The passkey registered before is still there.
    expect((await trpcCall(base(), person.cookie, "portal.passkeys.list")).body.result!.data).toHaveLength(1);
    expect((await save({ offered: true })).status).toBe(200);
    expect((await trpcCall(base(), person.cookie, "portal.passkeys.offered")).body.result!.data).toBe(true);
  });

  it("asks for the allowed attachment and refuses an answer that says another one", async () => {
    expect((await save({ attachment: "cross-platform" })).status).toBe(200);
    const person = await portalPerson();
    const options = (await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation")).body.result!.data;
    expect(options.authenticatorSelection).toMatchObject({ authenticatorAttachment: "cross-platform", residentKey: "required" });
    const wrong = await register(person, new SoftAuthenticator(origin(), rpId()), { attachment: "platform" });
    expect(appCode(wrong)).toBe("passkeys.attachment_refused");
    expect((await register(person, new SoftAuthenticator(origin(), rpId()), { attachment: "cross-platform" })).status).toBe(200);
    // An answer that does not say its attachment cannot be held to it.
    expect((await register(person, new SoftAuthenticator(origin(), rpId()), { attachment: null })).status).toBe(200);
    expect((await save({})).status).toBe(200);
  });

  it("lets a registration without user verification through when it is only preferred, and refuses it when required", async () => {
    const person = await portalPerson();
    const required = await register(person, new SoftAuthenticator(origin(), rpId()), { uv: false });
    expect(appCode(required)).toBe("passkeys.not_verified");
    expect((await save({ userVerification: "preferred" })).status).toBe(200);
    const options = (await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation")).body.result!.data;
    expect(options.authenticatorSelection.userVerification).toBe("preferred");
    expect((await register(person, new SoftAuthenticator(origin(), rpId()), { uv: false })).status).toBe(200);
    expect((await save({})).status).toBe(200);
  });

  it("with direct attestation, accepts a listed model proven under the metadata's root and refuses the rest", async () => {
    // Direct attestation needs the models in uploaded metadata first.
    const early = await save({ attestation: "direct", allowedAaguids: [listed.aaguid] });
    expect(early.status).toBe(400);
    const payload = metadataPayload([
      { aaguid: listed.aaguid, description: "Listed Key <img src=x onerror=alert(1)>", rootDer: listed.key.rootDer },
      { aaguid: unlisted.aaguid, description: "Unlisted Key", rootDer: unlisted.key.rootDer },
    ]);
    const uploaded = await trpcCall(base(), admin, "console.passkeyPolicy.uploadMetadata", { file: JSON.stringify(payload) }, "mutation");
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.result!.data.authenticators.map((a: { aaguid: string }) => a.aaguid).sort()).toEqual([listed.aaguid, unlisted.aaguid].sort());
    expect((await save({ attestation: "direct", allowedAaguids: [listed.aaguid] })).status).toBe(200);

    const person = await portalPerson();
    const options = (await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation")).body.result!.data;
    expect(options.attestation).toBe("direct");
    const good = new SoftAuthenticator(origin(), rpId(), true, aaguidBytes(listed.aaguid), { x5c: [listed.key.leafDer], key: listed.key.leafKey });
    expect((await register(person, good)).status).toBe(200);
    const names = (await trpcCall(base(), person.cookie, "portal.passkeys.list")).body.result!.data.map((p: { authenticator: string }) => p.authenticator);
    // The name is text as the metadata gave it (the pages escape it), on one line.
    expect(names).toEqual(["Listed Key <img src=x onerror=alert(1)>"]);

    const otherModel = new SoftAuthenticator(origin(), rpId(), true, aaguidBytes(unlisted.aaguid), { x5c: [unlisted.key.leafDer], key: unlisted.key.leafKey });
    expect(appCode(await register(person, otherModel))).toBe("passkeys.attestation_refused");
    const noAttestation = new SoftAuthenticator(origin(), rpId(), true, aaguidBytes(listed.aaguid));
    expect(appCode(await register(person, noAttestation))).toBe("passkeys.attestation_refused");
    // The listed model's AAGUID claimed under another vendor's certificate: its chain does not reach the listed root.
    const impostor = new SoftAuthenticator(origin(), rpId(), true, aaguidBytes(listed.aaguid), { x5c: [unlisted.key.leafDer], key: unlisted.key.leafKey });
    expect(appCode(await register(person, impostor))).toBe("passkeys.not_verified");
    expect((await save({})).status).toBe(200);
  });

  it("refuses malformed, unsigned and oversized metadata with a 4xx, and the policy's changes to anyone but an administrator", async () => {
    const upload = (file: string) => trpcCall(base(), admin, "console.passkeyPolicy.uploadMetadata", { file }, "mutation");
    for (const file of ["not metadata", "{\"no\": 1", JSON.stringify({ no: 1, nextUpdate: "2099-01-01", entries: [] }), "eyJhbGciOiJFUzI1NiJ9.eyJubyI6MX0.c2ln"]) {
      const refused = await upload(file);
      expect(refused.status, file).toBe(400);
      expect(appCode(refused), file).toBe("passkeys.metadata_invalid");
    }
    const tooLong = await upload("x".repeat(16 * 1024 * 1024 + 1));
    expect(tooLong.status).toBe(400);
    const tooLarge = await fetch(`${base()}/api/trpc/console.passkeyPolicy.uploadMetadata`, { method: "POST", headers: { "content-type": "application/json", cookie: admin }, body: JSON.stringify({ file: "x".repeat(25 * 1024 * 1024) }) });
    expect(tooLarge.status).toBe(413);
    // Another procedure keeps the usual limit.
    const bigSave = await fetch(`${base()}/api/trpc/console.passkeyPolicy.save`, { method: "POST", headers: { "content-type": "application/json", cookie: admin }, body: JSON.stringify({ allowedAaguids: ["x".repeat(100_000)] }) });
    expect(bigSave.status).toBe(413);

    const person = await portalPerson();
    expect((await trpcCall(base(), person.cookie, "console.passkeyPolicy.save", { offered: false }, "mutation")).status).toBe(401);
    expect((await trpcCall(base(), "", "console.passkeyPolicy.uploadMetadata", { file: "{}" }, "mutation")).status).toBe(401);
    // Megabytes are read only from someone signed in to the console: anyone else is refused before the body is.
    for (const cookie of ["", person.cookie]) {
      const anonymous = await fetch(`${base()}/api/trpc/console.passkeyPolicy.uploadMetadata`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ file: "x".repeat(2 * 1024 * 1024) }) });
      expect(anonymous.status).toBe(401);
      // Said by the request guard, not by the procedure (which would have read the body first).
      expect(((await anonymous.json()) as { error: { message: string } }).error.message).toBe("sign in to the console first");
    }
    expect((await save({ offered: false, requiredForAdmins: true })).status).toBe(400);
  });

  it("requires a passkey of administrators only once the one who saves has one, and then shuts the console to those without", async () => {
    const refused = await save({ requiredForAdmins: true });
    expect(refused.status).toBe(409);
    expect(appCode(refused)).toBe("passkeys.enrol_first");

    // The administrator enrols a passkey in the portal (which the policy never closes), then requires them.
    expect((await register({ cookie: await portalSession("admin", inject("adminPassword")) }, new SoftAuthenticator(origin(), rpId()))).status).toBe(200);
    const deputy = await createUserWithPassword();
    await consoleMutation(base(), admin, "console.users.setRoles", { sub: deputy.sub, roles: ["auditor"] });
    const deputyConsole = await consoleSignIn(base(), deputy.sub, deputy.password);
    expect((await trpcCall(base(), deputyConsole, "console.passkeyPolicy.get")).status).toBe(200);
    expect((await save({ requiredForAdmins: true })).status).toBe(200);

    const shut = await trpcCall(base(), deputyConsole, "console.passkeyPolicy.get");
    expect(shut.status).toBe(403);
    expect(appCode(shut)).toBe("console.passkey_required");
    const page = await fetch(`${base()}/console/users`, { headers: { cookie: deputyConsole }, redirect: "manual" });
    expect(page.headers.get("location")).toMatch(/\/account\/passkeys\?for=console$/);
    expect((await trpcCall(base(), admin, "console.passkeyPolicy.get")).status).toBe(200);

    // The deputy enrols in the portal, and the console opens.
    expect((await register({ cookie: await portalSession(deputy.sub, deputy.password) }, new SoftAuthenticator(origin(), rpId()))).status).toBe(200);
    expect((await trpcCall(base(), deputyConsole, "console.passkeyPolicy.get")).status).toBe(200);
    expect((await save({})).status).toBe(200);
  });
});
