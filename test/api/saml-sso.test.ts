import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SAML } from "@node-saml/node-saml";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, formOf, type TPage } from "../support/browser.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { serverOfItsOwn } from "../support/own-server.ts";
import { authnRequestXml, postedResponse, postRequest, redirectQuery, spReads } from "../support/saml-peers.ts";
import { formField, makeSpKeys, newServiceProvider, type TSpKeys } from "../support/saml-sp.ts";
import { api, systemToken } from "../support/http.ts";
import { hasXmlsec1, xmlsec1Decrypt, xmlsec1Verify } from "../support/xmlsec.ts";
import { signEnveloped } from "../../server/saml/xml/dsig.ts";

/** A message signed as a POST-binding sender signs it (xml-crypto, the provider's key). */
const signEnvelopedForTest = (xml: string, keys: TSpKeys) => signEnveloped(xml.replace(/^<\?xml[^>]*\?>/, ""), /ID="([^"]+)"/.exec(xml)![1]!, { privateKeyPem: keys.key, certificatePem: keys.cert }, "Issuer");

/*
 * SP-initiated single sign-on with @node-saml/node-saml as the service providers: requests over the
 * Redirect and POST bindings, the real sign-in pages, the signed response posted back and checked by
 * the library (signatures, audience, InResponseTo, recipient) and by xmlsec1; then what an attacker
 * or a misconfigured provider sends, refused with a page and nothing sent anywhere.
 */

const IVANOV = { sub: "ivanov", password: "ivanov-password" };
const SIDOROV = { sub: "sidorov", password: "sidorov-password-1" };
const WIKI = { id: "wiki", entityId: "https://wiki.example/saml", acs: "http://127.0.0.1:9/wiki/acs" };
const CRM = { id: "crm", entityId: "https://crm.example/saml", acs: "http://127.0.0.1:9/crm/acs" };
// The wiki's metadata offers logout by HTTP-POST (as node-saml writes it); the CRM's, typed by hand, by HTTP-Redirect.
const WIKI_SLO = "http://127.0.0.1:9/wiki/slo";
const CRM_SLO = "http://127.0.0.1:9/crm/slo";
const MAIL = { id: "mail", entityId: "https://mail.example/saml", acs: "http://127.0.0.1:9/mail/acs" };
const DOCS = { id: "docs", entityId: "https://docs.example/saml", acs: "http://127.0.0.1:9/docs/acs" };
const HR = { id: "hr", entityId: "https://hr.example/saml", acs: "http://127.0.0.1:9/hr/acs" };
const wikiKeys: TSpKeys = makeSpKeys("wiki.example");
const crmKeys: TSpKeys = makeSpKeys("crm.example");
const strangerKeys: TSpKeys = makeSpKeys("stranger.example");
const mailKeys: TSpKeys = makeSpKeys("mail.example");
const hrKeys: TSpKeys = makeSpKeys("hr.example");
const docsKeys: TSpKeys = makeSpKeys("docs.example");

/** The suite's fixture with two service providers: the wiki from its node-saml metadata, the CRM typed by hand. */
function importWithProviders(): string {
  const doc = JSON.parse(readFileSync(IMPORT_FIXTURE, "utf8"));
  // An account whose address was never confirmed: it is nobody's proof of that address.
  doc.users.push({ sub: SIDOROV.sub, attributes: { given_name: "Сидор", email: { value: "sidorov@example.ru", vrf: false } }, password: SIDOROV.password });
  const placeholder = newServiceProvider({ entityId: WIKI.entityId, acsUrl: WIKI.acs, entryPoint: "http://127.0.0.1:9/unused", keys: wikiKeys, logoutCallbackUrl: WIKI_SLO });
  doc.samlServiceProviders = [
    { id: WIKI.id, name: "Team wiki", metadataXml: placeholder.generateServiceProviderMetadata(null, wikiKeys.cert) },
    { id: CRM.id, name: "CRM", entityId: CRM.entityId, acsUrls: [CRM.acs], signingCerts: [crmKeys.cert], nameIdFormat: "email", singleLogoutUrl: CRM_SLO },
    // Metadata with an encryption certificate: assertions are encrypted to it.
    { id: MAIL.id, name: "Mail", metadataXml: newServiceProvider({ entityId: MAIL.entityId, acsUrl: MAIL.acs, entryPoint: "http://127.0.0.1:9/unused", keys: mailKeys, decryptionPvk: mailKeys.key }).generateServiceProviderMetadata(mailKeys.cert, mailKeys.cert) },
    // An application whose administrator wants people to allow what it is sent.
    { id: DOCS.id, name: "Docs", entityId: DOCS.entityId, acsUrls: [DOCS.acs], signingCerts: [docsKeys.cert], askConsent: true,
      attributes: [{ name: "cn", from: "given_name" }, { name: "memberOf", from: "groups" }] },
    { id: HR.id, name: "HR", entityId: HR.entityId, acsUrls: [HR.acs], signingCerts: [hrKeys.cert], encryptionCert: hrKeys.cert, assertionEncryption: "aes128-gcm", allowIdpInitiated: true, defaultRelayState: "/inbox",
      attributes: [
        { name: "urn:oid:0.9.2342.19200300.100.1.3", friendlyName: "mail", nameFormat: "uri", from: "email" },
        { name: "mobile", from: "phone_number" },
        { name: "employeeNumber", from: "employee_id" },
        { name: "groups", from: "groups" },
        { name: "roles", from: "rights" },
        { name: "unknown", from: "no_such_attribute" },
      ] },
  ];
  const file = path.join(mkdtempSync(path.join(tmpdir(), "saml-import-")), "import.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const server = serverOfItsOwn("saml", { IDP_IMPORT: importWithProviders() });
let idpCert: string;
const ssoUrl = () => `${server().baseUrl}/saml/sso`;

function sp(which: typeof WIKI, keys: TSpKeys, extra: Parameters<typeof newServiceProvider>[0] extends infer O ? Partial<O> : never = {}): SAML {
  return newServiceProvider({ entityId: which.entityId, acsUrl: which.acs, entryPoint: ssoUrl(), logoutUrl: `${server().baseUrl}/saml/slo`, keys, idpCert, validateInResponseTo: "always" as never, ...extra });
}

async function signIn(browser: Browser, url: string, as = IVANOV): Promise<ReturnType<typeof postedResponse>> {
  let page = await browser.open(url);
  if (page.status === 200 && page.url.includes("/login?")) page = await browser.submit(page, { identifier: as.sub, password: as.password });
  return postedResponse(page);
}

type TEvent = { type: string; clientId: string | null; params: Record<string, unknown> };

/** The person's newest event of this type, as the audit API shows it. */
async function lastEvent(sub: string, type: string): Promise<TEvent | undefined> {
  const token = await systemToken("users-app", "idp_api_sys_uaud", server().baseUrl);
  const events = (await api("GET", `/api/v3/users/${sub}/audit`, { token, origin: server().baseUrl })).body.events as TEvent[];
  return events.find((e) => e.type === type);
}

beforeAll(async () => {
  const md = await (await fetch(`${server().baseUrl}/saml/metadata`)).text();
  const body = /<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>([^<]+)</.exec(md)![1]!;
  idpCert = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
});

describe("SP-initiated single sign-on", () => {
  it("signs a person in over the Redirect binding and posts a response node-saml accepts", async () => {
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const browser = new Browser({}, server().baseUrl);
    const posted = await signIn(browser, await wiki.getAuthorizeUrlAsync("/pages/home?x=1", undefined, {}));
    expect(posted.action).toBe(WIKI.acs);
    expect(posted.RelayState).toBe("/pages/home?x=1");
    const { profile, error } = await spReads(wiki, posted);
    expect(error).toBeUndefined();
    expect(profile!.issuer).toBe(`${server().baseUrl}/saml/metadata`);
    expect(profile!.nameIDFormat).toBe("urn:oasis:names:tc:SAML:2.0:nameid-format:persistent");
    expect(profile!.nameID).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(profile!.nameID).not.toContain("ivanov");
    expect(profile!.email).toBe("ivanov@example.ru");
    expect(profile!.given_name).toBe("Иван");
    // Not the account's id: the same for every provider, it would undo the pairwise NameID.
    expect(profile!.sub).toBeUndefined();
    expect(posted.xml).not.toContain(">ivanov<");
    expect(posted.xml).toContain('AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport<');

    // The same browser again: the session counts, no page is shown, and the persistent NameID is the same.
    const again = await browser.open(await wiki.getAuthorizeUrlAsync("", undefined, {}));
    const second = await spReads(wiki, postedResponse(again));
    expect(second.profile!.nameID).toBe(profile!.nameID);
    // Without a format in the request, the one the provider's metadata names (node-saml's says e-mail address).
    const unnamed = await browser.open(await sp(WIKI, wikiKeys, { identifierFormat: null }).getAuthorizeUrlAsync("", undefined, {}));
    expect(postedResponse(unnamed).xml).toContain('Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">ivanov@example.ru</saml:NameID>');
    expect(postedResponse(again).xml).toContain("ac:classes:PreviousSession<");
    expect(await lastEvent(IVANOV.sub, "saml.signed_in")).toMatchObject({ clientId: WIKI.id, params: { sp: WIKI.entityId, nameIdFormat: "email", reusedSession: true } });
  });

  it("takes a request over the POST binding through a one-time GET that carries the browser's cookies", async () => {
    const wiki = sp(WIKI, wikiKeys, { authnRequestBinding: "HTTP-POST" });
    const form = await wiki.getAuthorizeFormAsync("relay-post");
    const browser = new Browser({}, server().baseUrl);
    const first = await postRequest(browser, ssoUrl(), formField(form, "SAMLRequest"), "relay-post");
    expect(first.status).toBe(303);
    expect(first.location).toMatch(new RegExp(`^${server().baseUrl}/saml/sso/continue\\?r=[A-Za-z0-9_-]{32}$`));
    const posted = await signIn(browser, first.location!);
    expect(posted.RelayState).toBe("relay-post");
    expect((await spReads(wiki, posted)).profile!.email).toBe("ivanov@example.ru");
    // The handle is spent.
    const replayed = await browser.fetch(first.location!);
    expect(replayed.status).toBe(404);
  });

  it("gives the CRM the verified e-mail address as NameID, and its response is refused by the wiki", async () => {
    const crm = sp(CRM, crmKeys);
    const posted = await signIn(new Browser({}, server().baseUrl), await crm.getAuthorizeUrlAsync("", undefined, {}));
    const read = await spReads(crm, posted);
    expect(read.profile!.nameIDFormat).toBe("urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress");
    expect(read.profile!.nameID).toBe("ivanov@example.ru");
    const atWiki = await spReads(sp(WIKI, wikiKeys, { validateInResponseTo: "never" as never }), posted);
    expect(atWiki.error).toMatch(/audience|Audience/);
  });

  it("never vouches for an address the person did not confirm: no e-mail NameID, no email attribute", async () => {
    const crm = sp(CRM, crmKeys);
    const refused = await signIn(new Browser({}, server().baseUrl), await crm.getAuthorizeUrlAsync("", undefined, {}), SIDOROV);
    expect(refused.xml).toContain("urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy");
    expect(refused.xml).not.toContain("sidorov@example.ru");
    expect((await spReads(crm, refused)).error).toMatch(/InvalidNameIDPolicy/);
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const posted = await signIn(new Browser({}, server().baseUrl), await wiki.getAuthorizeUrlAsync("", undefined, {}), SIDOROV);
    const { profile } = await spReads(wiki, posted);
    expect(profile!.given_name).toBe("Сидор");
    expect(profile!.email).toBeUndefined();
    expect(posted.xml).not.toContain("sidorov@example.ru");
  });

  it("posts the response only to the browser whose sign-in it is; another loading the link spends nothing", async () => {
    const owner = new Browser({}, server().baseUrl);
    const login = await owner.open(await sp(WIKI, wikiKeys).getAuthorizeUrlAsync("", undefined, {}));
    const form = new URLSearchParams({ ...formOf(login.text).hidden, identifier: IVANOV.sub, password: IVANOV.password });
    const submitted = await owner.fetch(new URL(formOf(login.text).action, login.url).toString(), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(submitted.location).toMatch(/\/saml\/sso\/return\?flow=/);
    const stranger = await new Browser({}, server().baseUrl).fetch(submitted.location!);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain("SAMLResponse");
    expect(postedResponse(await owner.fetch(submitted.location!)).action).toBe(WIKI.acs);
    expect((await owner.fetch(submitted.location!)).status).toBe(404);
  });

  it("has its Response and Assertion signatures verified by xmlsec1 with the published certificate", async (ctx) => {
    if (!hasXmlsec1()) return ctx.skip();
    const posted = await signIn(new Browser({}, server().baseUrl), await sp(WIKI, wikiKeys).getAuthorizeUrlAsync("", undefined, {}));
    const response = xmlsec1Verify(posted.xml, idpCert, "urn:oasis:names:tc:SAML:2.0:protocol:Response", "/*/*[local-name()='Signature']");
    expect(response.output).toMatch(/^OK/m);
    const assertion = xmlsec1Verify(posted.xml, idpCert, "urn:oasis:names:tc:SAML:2.0:assertion:Assertion", "//*[local-name()='Assertion']/*[local-name()='Signature']");
    expect(assertion.output).toMatch(/^OK/m);
    const forged = xmlsec1Verify(posted.xml.replace("ivanov@example.ru", "admin@example.ru"), idpCert, "urn:oasis:names:tc:SAML:2.0:assertion:Assertion", "//*[local-name()='Assertion']/*[local-name()='Signature']");
    expect(forged.ok).toBe(false);
  });

  it("encrypts the assertion to a provider that registered an encryption certificate, with the cipher it names", async (ctx) => {
    const mail = sp(MAIL, mailKeys, { decryptionPvk: mailKeys.key });
    const posted = await signIn(new Browser({}, server().baseUrl), await mail.getAuthorizeUrlAsync("", undefined, {}));
    expect(posted.xml).toContain("<saml:EncryptedAssertion>");
    expect(posted.xml).toContain('Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"');
    expect(posted.xml).toContain('Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"');
    expect(posted.xml).not.toContain("ivanov");
    expect((await spReads(mail, posted)).profile!.email).toBe("ivanov@example.ru");
    // Without the key node-saml cannot read it.
    expect((await spReads(sp(MAIL, mailKeys), posted)).error).toBeDefined();

    const hr = sp(HR, hrKeys, { decryptionPvk: hrKeys.key });
    const hrPosted = await signIn(new Browser({}, server().baseUrl), await hr.getAuthorizeUrlAsync("", undefined, {}));
    expect(hrPosted.xml).toContain('Algorithm="http://www.w3.org/2009/xmlenc11#aes128-gcm"');
    expect((await spReads(hr, hrPosted)).profile!.email).toBe("ivanov@example.ru");

    if (!hasXmlsec1()) return ctx.skip();
    const decrypted = xmlsec1Decrypt(posted.xml, mailKeys.keyFile);
    expect(decrypted.ok, decrypted.output).toBe(true);
    expect(decrypted.decrypted).toContain("ivanov@example.ru</saml:NameID>");
    const assertion = xmlsec1Verify(decrypted.decrypted, idpCert, "urn:oasis:names:tc:SAML:2.0:assertion:Assertion", "//*[local-name()='Assertion']/*[local-name()='Signature']");
    expect(assertion.output).toMatch(/^OK/m);
  });

  it("sends nothing for an account locked after its sign-in: the session ends, and the sign-in says it is locked", async () => {
    const sub = `locked-${Date.now()}`;
    const origin = server().baseUrl;
    const reg = await api("PUT", "/reg/api/v3/users", { token: await systemToken("users-app", "idp_api_sys_users_reg", origin), origin, body: { user: { attrs: { sub, given_name: "Замок" }, credentials: { password: "locked-account-password" } } } });
    expect(reg.status).toBe(200);
    const browser = new Browser({ "accept-language": "en" }, origin);
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    expect((await spReads(wiki, await signIn(browser, await wiki.getAuthorizeUrlAsync("", undefined, {}), { sub, password: "locked-account-password" }))).error).toBeUndefined();
    const locked = await api("POST", `/api/v3/users/${reg.body.instanceId}`, { token: await systemToken("users-app", "idp_api_sys_users_chg", origin), origin, body: { locked: true } });
    expect(locked.status).toBe(200);
    // The lock ended the session: the sign-in page again, and the right password is told the account is locked.
    const page = await browser.open(await wiki.getAuthorizeUrlAsync("", undefined, {}));
    expect(page.url).toMatch(/\/login\?flow=/);
    const refused = await browser.submit(page, { identifier: sub, password: "locked-account-password" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("This account is locked.");
    expect(refused.text).not.toContain("SAMLResponse");
  });

  it("asks for the password again on ForceAuthn, and answers NoPassive to IsPassive without a session", async () => {
    const browser = new Browser({}, server().baseUrl);
    await signIn(browser, await sp(WIKI, wikiKeys).getAuthorizeUrlAsync("", undefined, {}));
    const forced = await browser.open(await sp(WIKI, wikiKeys, { forceAuthn: true }).getAuthorizeUrlAsync("", undefined, {}));
    expect(forced.url).toMatch(/\/login\?flow=/);
    const passive = sp(WIKI, wikiKeys, { passive: true });
    const page = await new Browser({}, server().baseUrl).open(await passive.getAuthorizeUrlAsync("", undefined, {}));
    const posted = postedResponse(page);
    expect(posted.xml).toContain("urn:oasis:names:tc:SAML:2.0:status:NoPassive");
    // node-saml checks the signature of the status, then reads "nobody signed in".
    expect(await spReads(passive, posted)).toEqual({ profile: null });
  });
});

describe("attributes", () => {
  it("sends a provider the attributes it is configured with: catalog attributes, groups, and rights on it", async () => {
    const token = await systemToken("rights-app", "idp_rights_full_access", server().baseUrl);
    const granted = await api("PUT", "/api/v3/rights", { token, origin: server().baseUrl, body: { subject: IVANOV.sub, object: HR.id, objectType: "its", rights: ["manage_app"], tags: ["saml"] } });
    expect(granted.status, granted.text).toBe(204);
    const hr = sp(HR, hrKeys, { decryptionPvk: hrKeys.key });
    const posted = await signIn(new Browser({}, server().baseUrl), await hr.getAuthorizeUrlAsync("", undefined, {}));
    const { profile } = await spReads(hr, posted);
    expect(profile!["urn:oid:0.9.2342.19200300.100.1.3"]).toBe("ivanov@example.ru");
    expect(profile!.mobile).toBe("+79990000001");
    expect(profile!.employeeNumber).toBe("1001");
    expect(profile!.groups).toBe("org-fixture");
    expect(profile!.roles).toBe("manage_app");
    expect(profile!.unknown).toBeUndefined();
    // Not the default set: no given_name unless asked for.
    expect(profile!.given_name).toBeUndefined();
    const decrypted = (profile as unknown as { getAssertionXml: () => string }).getAssertionXml();
    expect(decrypted).toContain('Name="urn:oid:0.9.2342.19200300.100.1.3" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri" FriendlyName="mail"');
  });
});

describe("single logout", () => {
  it("ends the session at one provider's request, tells the other provider, and answers the first", async () => {
    const browser = new Browser({}, server().baseUrl);
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const crm = sp(CRM, crmKeys);
    const atWiki = (await spReads(wiki, await signIn(browser, await wiki.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    const atCrm = (await spReads(crm, postedResponse(await browser.open(await crm.getAuthorizeUrlAsync("", undefined, {}))))).profile!;
    expect(atWiki.sessionIndex).not.toBe(atCrm.sessionIndex);

    // The wiki asks (Redirect, signed by node-saml); the CRM is told next, by Redirect.
    const logoutUrl = await wiki.getLogoutUrlAsync(atWiki as never, "after-logout", {});
    const wikiRequestId = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(new URL(logoutUrl).searchParams.get("SAMLRequest")!, "base64")).toString())![1];
    const toCrm = await browser.fetch(logoutUrl);
    expect(toCrm.status).toBe(302);
    expect(toCrm.location!.startsWith(`${CRM_SLO}?SAMLRequest=`)).toBe(true);
    const told = new URL(toCrm.location!);
    const { profile: request, loggedOut } = await crm.validateRedirectAsync(Object.fromEntries(told.searchParams), told.search.slice(1));
    // node-saml: a verified logout request (it checked our signature on the query), with whom it names.
    expect(loggedOut).toBe(true);
    expect(request!.nameID).toBe("ivanov@example.ru");
    expect(request!.sessionIndex).toBe(atCrm.sessionIndex);

    // The CRM answers; the wiki then gets our response by HTTP-POST, which node-saml accepts.
    const back = await browser.fetch(await crm.getLogoutResponseUrlAsync(request!, told.searchParams.get("RelayState")!, {}, true));
    const posted = postedResponse(back);
    expect(posted.action).toBe(WIKI_SLO);
    expect(posted.RelayState).toBe("after-logout");
    expect(posted.xml).toContain("urn:oasis:names:tc:SAML:2.0:status:Success");
    expect(posted.xml).toContain(`InResponseTo="${wikiRequestId}"`);
    // node-saml looks for InResponseTo on a Response only, so this check is the test's, above; it verifies our signature.
    const wikiAfter = sp(WIKI, wikiKeys, { validateInResponseTo: "never" as never });
    expect((await wikiAfter.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse })).loggedOut).toBe(true);

    // Signed out here too: the next sign-on asks for the password.
    expect((await browser.open(await wiki.getAuthorizeUrlAsync("", undefined, {}))).url).toMatch(/\/login\?flow=/);
    // One event for the whole logout: who asked, who was told.
    expect(await lastEvent(IVANOV.sub, "saml.signed_out")).toMatchObject({ clientId: WIKI.id, params: { origin: WIKI.entityId, told: [CRM.id], failed: [], status: "Success" } });
  });

  it("tells every SAML application of the session when the person signs out here, then lands where sign-out lands", async () => {
    const browser = new Browser({ "accept-language": "en" }, server().baseUrl);
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const crm = sp(CRM, crmKeys);
    const atWiki = (await spReads(wiki, await signIn(browser, await wiki.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    await spReads(crm, postedResponse(await browser.open(await crm.getAuthorizeUrlAsync("", undefined, {}))));

    // No ID token names the person, so the sign-out page asks first.
    const confirm = await browser.fetch(`${server().baseUrl}/oauth/logout`);
    const toWiki = await browser.submit(confirm, {});
    // The wiki first (it was signed in to first), by an auto-posted LogoutRequest with an enveloped signature.
    const posted = formOf(toWiki.text);
    expect(posted.action).toBe(WIKI_SLO);
    const { profile: asked } = await wiki.validatePostRequestAsync({ SAMLRequest: posted.hidden.SAMLRequest! });
    expect(asked!.nameID).toBe(atWiki.nameID);
    expect(asked!.sessionIndex).toBe(atWiki.sessionIndex);
    const toCrm = await browser.fetch(await wiki.getLogoutResponseUrlAsync(asked!, posted.hidden.RelayState!, {}, true));
    expect(toCrm.location!.startsWith(`${CRM_SLO}?SAMLRequest=`)).toBe(true);
    const told = new URL(toCrm.location!);
    const { profile: crmAsked } = await crm.validateRedirectAsync(Object.fromEntries(told.searchParams), told.search.slice(1));
    const end = await browser.fetch(await crm.getLogoutResponseUrlAsync(crmAsked!, told.searchParams.get("RelayState")!, {}, true));
    expect(end.status).toBe(302);
    const landed = await browser.fetch(end.location!);
    expect(landed.status).toBe(200);
    expect(landed.text).toContain("signed out");
    expect(await lastEvent(IVANOV.sub, "saml.signed_out")).toMatchObject({ clientId: null, params: { origin: null, told: [WIKI.id, CRM.id], failed: [], status: "Ended" } });
    // The session is gone: a sign-on asks for the password.
    expect((await browser.open(await crm.getAuthorizeUrlAsync("", undefined, {}))).url).toMatch(/\/login\?flow=/);
  });

  it("keeps the applications of a session its person signs in to again (ForceAuthn): logout still reaches them", async () => {
    const browser = new Browser({}, server().baseUrl);
    const crm = sp(CRM, crmKeys);
    await signIn(browser, await crm.getAuthorizeUrlAsync("", undefined, {}));
    // The wiki asks for a new sign-in: a new session replaces the one the CRM signed in during.
    const wiki = sp(WIKI, wikiKeys, { forceAuthn: true, identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const atWiki = (await spReads(wiki, await signIn(browser, await wiki.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    const toCrm = await browser.fetch(await wiki.getLogoutUrlAsync(atWiki as never, "", {}));
    expect(toCrm.location!.startsWith(`${CRM_SLO}?SAMLRequest=`)).toBe(true);
  });

  it("ends the sessions but tells no other provider when the browser is not the person's: PartialLogout", async () => {
    const person = new Browser({}, server().baseUrl);
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const atWiki = (await spReads(wiki, await signIn(person, await wiki.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    await signIn(person, await sp(CRM, crmKeys).getAuthorizeUrlAsync("", undefined, {}));
    // The wiki sends the logout request from a browser of its own: the CRM's request (naming the person there) is not handed to it.
    const elsewhere = await new Browser({}, server().baseUrl).fetch(await wiki.getLogoutUrlAsync(atWiki as never, "", {}));
    const posted = postedResponse(elsewhere);
    expect(posted.action).toBe(WIKI_SLO);
    expect(posted.xml).toContain("urn:oasis:names:tc:SAML:2.0:status:PartialLogout");
    expect(await lastEvent(IVANOV.sub, "saml.signed_out")).toMatchObject({ clientId: WIKI.id, params: { told: [], failed: [CRM.id], status: "PartialLogout" } });
    // The person's session ended all the same.
    expect((await person.open(await wiki.getAuthorizeUrlAsync("", undefined, {}))).url).toMatch(/\/login\?flow=/);
  });

  it("takes a logout request by HTTP-POST through a one-time GET that carries the browser's cookies", async () => {
    const browser = new Browser({}, server().baseUrl);
    const crm = sp(CRM, crmKeys);
    const atCrm = (await spReads(crm, await signIn(browser, await crm.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    const xml = inflateRawSync(Buffer.from(new URL(await crm.getLogoutUrlAsync(atCrm as never, "", {})).searchParams.get("SAMLRequest")!, "base64")).toString();
    const signed = signEnvelopedForTest(xml, crmKeys);
    const first = await postRequest(browser, `${server().baseUrl}/saml/slo`, Buffer.from(signed).toString("base64"), "post-relay");
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/\/saml\/slo\/continue\?r=/);
    const answered = await browser.fetch(first.location!);
    expect(answered.status).toBe(302);
    expect(answered.location!.startsWith(`${CRM_SLO}?SAMLResponse=`)).toBe(true);
    expect(new URL(answered.location!).searchParams.get("RelayState")).toBe("post-relay");
    expect((await browser.fetch(first.location!)).status).toBe(404);
  });

  it("refuses a forged logout request wrapped around the provider's own signed one, ending nobody's session", async () => {
    // The attacker (Sidorov) holds the wiki's signed logout request about themselves, and wants Ivanov signed out of it.
    const wiki = sp(WIKI, wikiKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const victim = new Browser({}, server().baseUrl);
    const atVictim = (await spReads(wiki, await signIn(victim, await wiki.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    const attacker = new Browser({}, server().baseUrl);
    const own = (await spReads(wiki, await signIn(attacker, await wiki.getAuthorizeUrlAsync("", undefined, {}), SIDOROV))).profile!;
    const ownXml = inflateRawSync(Buffer.from(new URL(await wiki.getLogoutUrlAsync(own as never, "", {})).searchParams.get("SAMLRequest")!, "base64")).toString();
    const signed = signEnvelopedForTest(ownXml, wikiKeys).replace(/^<\?xml[^>]*\?>/, "");
    const victimNameId = `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${atVictim.nameID}</saml:NameID>`;
    const forged = (inner: string) =>
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_forged${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${server().baseUrl}/saml/slo"><saml:Issuer>${WIKI.entityId}</saml:Issuer>${inner}${victimNameId}</samlp:LogoutRequest>`;
    // The signed original inside Extensions, and as a sibling before the forged NameID.
    for (const xml of [forged(`<samlp:Extensions>${signed}</samlp:Extensions>`), forged(signed)]) {
      const page = await postRequest(attacker, `${server().baseUrl}/saml/slo`, Buffer.from(xml).toString("base64"));
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
    }
    // Both still signed in: the wiki is answered at once, each with their own NameID.
    expect((await spReads(wiki, postedResponse(await victim.open(await wiki.getAuthorizeUrlAsync("", undefined, {}))))).profile!.nameID).toBe(atVictim.nameID);
    expect((await spReads(wiki, postedResponse(await attacker.open(await wiki.getAuthorizeUrlAsync("", undefined, {}))))).profile!.nameID).toBe(own.nameID);
  });

  it("refuses an unsigned logout request and a replayed one, ending nothing", async () => {
    const browser = new Browser({ "accept-language": "en" }, server().baseUrl);
    const crm = sp(CRM, crmKeys);
    const atCrm = (await spReads(crm, await signIn(browser, await crm.getAuthorizeUrlAsync("", undefined, {})))).profile!;
    const signed = await crm.getLogoutUrlAsync(atCrm as never, "", {});
    const unsigned = signed.replace(/&SigAlg=[^&]*/, "").replace(/&Signature=[^&]*/, "");
    const refused = await browser.fetch(unsigned);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("is not signed as it must be");
    // Still signed in: a sign-on answers at once.
    expect(postedResponse(await browser.open(await crm.getAuthorizeUrlAsync("", undefined, {}))).action).toBe(CRM.acs);
    const first = await browser.fetch(signed);
    expect(first.status).toBe(302);
    expect(first.location!.startsWith(`${CRM_SLO}?SAMLResponse=`)).toBe(true);
    const replayed = await browser.fetch(signed);
    expect(replayed.status).toBe(400);
  });
});

describe("consent", () => {
  it("asks first when the provider is set to, answers RequestDenied when refused, and lists the consent like an application's", async () => {
    const browser = new Browser({ "accept-language": "en" }, server().baseUrl);
    const docs = sp(DOCS, docsKeys, { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    const login = await browser.open(await docs.getAuthorizeUrlAsync("", undefined, {}));
    const consent = await browser.submit(login, { identifier: IVANOV.sub, password: IVANOV.password });
    expect(consent.url).toMatch(/\/consent\?flow=/);
    expect(consent.text).toContain("Docs asks for access to your account:");
    const listed = (page: TPage) => [...page.text.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]);
    expect(listed(consent)).toEqual(["Confirm who you are", "Your name", "Your groups"]);

    // Refused: the provider hears RequestDenied, signed, in answer to its request; nothing is stored.
    const denied = postedResponse(await browser.submit(consent, { decision: "deny" }));
    expect(denied.action).toBe(DOCS.acs);
    expect(denied.xml).toContain("urn:oasis:names:tc:SAML:2.0:status:RequestDenied");
    expect((await spReads(docs, denied)).error).toMatch(/RequestDenied/);
    const acls = async () => (await api("GET", `/api/v3/users/${IVANOV.sub}/acls`, { token: await systemToken("users-app", "idp_api_sys_usec", server().baseUrl), origin: server().baseUrl })).body as { id: string; client_id: string; scopes: string[] }[];
    expect((await acls()).filter((a) => a.client_id === DOCS.id)).toEqual([]);
    expect(await lastEvent(IVANOV.sub, "user.consent_denied")).toMatchObject({ clientId: DOCS.id, params: { scopes: ["openid", "profile", "groups"] } });

    // The session counts, so the next request goes straight to the question; allowed, the response follows.
    const asked = await browser.open(await docs.getAuthorizeUrlAsync("", undefined, {}));
    expect(asked.url).toMatch(/\/consent\?flow=/);
    const { profile } = await spReads(docs, postedResponse(await browser.submit(asked, { decision: "allow" })));
    expect(profile!.cn).toBe("Иван");
    expect(profile!.mail).toBeUndefined();
    const granted = (await acls()).filter((a) => a.client_id === DOCS.id);
    expect(granted).toEqual([{ id: expect.any(String), updated: expect.any(Number), client_id: DOCS.id, scopes: ["openid", "profile", "groups"] }]);
    // Allowed once: answered at once from now on, even without a page (IsPassive).
    const quiet = sp(DOCS, docsKeys, { passive: true, identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" });
    expect((await spReads(quiet, postedResponse(await browser.open(await quiet.getAuthorizeUrlAsync("", undefined, {}))))).error).toBeUndefined();

    // An e-mail NameID sends the address, which the person did not allow: asked again, naming it.
    const byMail = sp(DOCS, docsKeys, { identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" });
    const again = await browser.open(await byMail.getAuthorizeUrlAsync("", undefined, {}));
    expect(listed(again)).toEqual(["Confirm who you are", "Your e-mail address", "Your name", "Your groups"]);
    expect((await spReads(byMail, postedResponse(await browser.submit(again, { decision: "allow" })))).profile!.nameID).toBe("ivanov@example.ru");

    // Revoked (as in the portal): asked again, and a passive request cannot ask, so it hears NoPassive.
    const revoked = await api("DELETE", `/api/v3/users/${IVANOV.sub}/acls/${granted[0]!.id}`, { token: await systemToken("users-app", "idp_api_sys_usec_chg", server().baseUrl), origin: server().baseUrl });
    expect(revoked.status).toBe(204);
    const passive = sp(DOCS, docsKeys, { passive: true });
    expect(postedResponse(await browser.open(await passive.getAuthorizeUrlAsync("", undefined, {}))).xml).toContain("urn:oasis:names:tc:SAML:2.0:status:NoPassive");

    // Two questions open at once: allowing one does not turn "Deny" on the other into a sign-in.
    const first = await browser.open(await docs.getAuthorizeUrlAsync("", undefined, {}));
    const second = await browser.open(await docs.getAuthorizeUrlAsync("", undefined, {}));
    expect((await spReads(docs, postedResponse(await browser.submit(second, { decision: "allow" })))).error).toBeUndefined();
    expect(postedResponse(await browser.submit(first, { decision: "deny" })).xml).toContain("urn:oasis:names:tc:SAML:2.0:status:RequestDenied");
  });

  it("asks nothing of a provider that is not set to ask, and records no consent for it", async () => {
    const browser = new Browser({}, server().baseUrl);
    await signIn(browser, await sp(WIKI, wikiKeys).getAuthorizeUrlAsync("", undefined, {}));
    const acls = (await api("GET", `/api/v3/users/${IVANOV.sub}/acls`, { token: await systemToken("users-app", "idp_api_sys_usec", server().baseUrl), origin: server().baseUrl })).body as { client_id: string }[];
    expect(acls.map((a) => a.client_id)).not.toContain(WIKI.id);
  });
});

describe("IdP-initiated single sign-on", () => {
  it("sends an unsolicited response to the default service of a provider that allows it, after a sign-in when needed", async () => {
    const browser = new Browser({}, server().baseUrl);
    const posted = await signIn(browser, `${server().baseUrl}/saml/idp-init?sp=${HR.id}`);
    expect(posted.action).toBe(HR.acs);
    expect(posted.RelayState).toBe("/inbox");
    expect(posted.xml).not.toContain("InResponseTo");
    const hr = sp(HR, hrKeys, { decryptionPvk: hrKeys.key, validateInResponseTo: "ifPresent" as never });
    expect((await spReads(hr, posted)).profile!.email).toBe("ivanov@example.ru");
    // A provider that asks for InResponseTo always refuses it, as it should.
    expect((await spReads(sp(HR, hrKeys, { decryptionPvk: hrKeys.key }), posted)).error).toMatch(/InResponseTo/);
    // Signed in now: the next start answers at once.
    const again = await browser.fetch(`${server().baseUrl}/saml/idp-init?sp=${HR.id}`);
    expect(postedResponse(again).action).toBe(HR.acs);
  });

  it("is refused for a provider that does not allow it, and for an unknown one", async () => {
    for (const id of [WIKI.id, "nobody", "rp-web"]) {
      const page = await new Browser({ "accept-language": "en" }, server().baseUrl).fetch(`${server().baseUrl}/saml/idp-init?sp=${id}`);
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
    }
  });
});

describe("requests that are refused with a page, nothing sent anywhere", () => {
  const refusedWith = async (query: string) => {
    const page = await new Browser({ "accept-language": "en" }, server().baseUrl).fetch(`${ssoUrl()}?${query}`);
    return { status: page.status, location: page.location, type: page.headers.get("content-type"), text: page.text };
  };
  const request = (o: Partial<Parameters<typeof authnRequestXml>[0]> = {}) =>
    authnRequestXml({ id: `_${Math.random().toString(36).slice(2)}`, issuer: WIKI.entityId, destination: ssoUrl(), acsUrl: WIKI.acs, ...o });

  it("accepts a hand-made signed request, and refuses it the second time (replay)", async () => {
    const query = redirectQuery(request(), wikiKeys);
    const first = await refusedWith(query);
    expect(first.status).toBe(302);
    expect(first.location).toMatch(/\/login\?flow=/);
    const second = await refusedWith(query);
    expect(second.status).toBe(400);
    expect(second.type).toMatch(/^text\/html/);
    expect(second.text).toContain("This sign-in request was answered already");
  });

  it("sends the response to the default service when the request names none", async () => {
    const page = await refusedWith(redirectQuery(request({ acsUrl: undefined }), wikiKeys));
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/\/login\?flow=/);
  });

  it("refuses an unsigned request, one signed by another key, and an unknown issuer", async () => {
    expect((await refusedWith(redirectQuery(request()))).text).toContain("is not signed as it must be");
    expect((await refusedWith(redirectQuery(request(), strangerKeys))).status).toBe(400);
    expect((await refusedWith(redirectQuery(request({ issuer: "https://unknown.example/saml" }), wikiKeys))).text).toContain("not registered here");
  });

  it("refuses an assertion consumer service the provider did not register, by URL or index", async () => {
    const byUrl = await refusedWith(redirectQuery(request({ acsUrl: "https://evil.example/acs" }), wikiKeys));
    expect(byUrl.status).toBe(400);
    expect(byUrl.location).toBeUndefined();
    expect(byUrl.text).toContain("did not register");
    const byIndex = await refusedWith(redirectQuery(request({ acsUrl: undefined, extra: "" }).replace("<samlp:AuthnRequest ", '<samlp:AuthnRequest AssertionConsumerServiceIndex="7" '), wikiKeys));
    expect(byIndex.text).toContain("did not register");
  });

  it("refuses a stale request, one from the future, and one addressed elsewhere", async () => {
    const stale = await refusedWith(redirectQuery(request({ issueInstant: new Date(Date.now() - 10 * 60_000) }), wikiKeys));
    expect(stale.status).toBe(400);
    const future = await refusedWith(redirectQuery(request({ issueInstant: new Date(Date.now() + 10 * 60_000) }), wikiKeys));
    expect(future.status).toBe(400);
    const elsewhere = await refusedWith(redirectQuery(request({ destination: "https://other-idp.example/sso" }), wikiKeys));
    expect(elsewhere.text).toContain("cannot be answered");
    // Signed but naming no destination: it could have been signed for another identity provider.
    const nowhere = await refusedWith(redirectQuery(request().replace(/ Destination="[^"]*"/, ""), wikiKeys));
    expect(nowhere.status).toBe(400);
    // A time without a zone is not read as local time.
    const zoneless = await refusedWith(redirectQuery(request().replace(/IssueInstant="([^"]*)Z"/, 'IssueInstant="$1"'), wikiKeys));
    expect(zoneless.status).toBe(400);
  });

  it("refuses XXE and entity expansion before reading the request", async () => {
    const xxe = request({ prolog: '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>', issuer: "&x;" });
    const page = await refusedWith(redirectQuery(xxe, wikiKeys));
    expect(page.status).toBe(400);
    expect(page.text).not.toContain("root:");
    const lol = request({ prolog: '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>', issuer: "&b;" });
    expect((await refusedWith(redirectQuery(lol, wikiKeys))).status).toBe(400);
  });

  it("refuses a POST request wrapped around another provider's signed one", async () => {
    const crm = sp(CRM, crmKeys, { authnRequestBinding: "HTTP-POST" });
    const signed = Buffer.from(formField(await crm.getAuthorizeFormAsync(""), "SAMLRequest"), "base64").toString("utf8").replace(/^<\?xml[^>]*\?>/, "");
    const wrapper = request({ issuer: CRM.entityId, acsUrl: "https://evil.example/acs", extra: `<samlp:Extensions>${signed}</samlp:Extensions>` });
    const page = await postRequest(new Browser({}, server().baseUrl), ssoUrl(), Buffer.from(wrapper).toString("base64"));
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
  });
});

describe("a service provider's row among the applications", () => {
  it("cannot be used as an OAuth client: no redirect URI, no grant, no secret", async () => {
    const authorize = await fetch(`${server().baseUrl}/oauth/ae?${new URLSearchParams({ client_id: WIKI.id, redirect_uri: WIKI.acs, response_type: "code", scope: "openid", code_challenge: "x".repeat(43), code_challenge_method: "S256" })}`, { redirect: "manual" });
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get("location")).toBeNull();
    const token = await fetch(`${server().baseUrl}/oauth/te`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: WIKI.id }).toString() });
    expect(token.status).toBe(401);
    expect((await token.json()).error).toBe("invalid_client");
  });
});
