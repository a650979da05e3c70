import type { Entry } from "ldapts";
import { describe, expect, it } from "vitest";
import { attributesToRead, catalogAttributesOf, entryFilter, guidBytes, guidText, stableIdOf } from "./directory-entries.ts";
import { directoryEndpoint } from "./directory-url.ts";

// What a directory's entries become here, for OpenLDAP's and Active Directory's values alike.

const AD_GUID = "6f9619ff-8b86-d011-b42d-00c04fc964ff";
// The same GUID as objectGUID carries it: the first three groups little-endian.
const AD_GUID_BYTES = Buffer.from("ff19966f868b11d0b42d00c04fc964ff", "hex");

describe("stable ids", () => {
  it("reads Active Directory's objectGUID in its byte order, and back", () => {
    expect(guidText(AD_GUID_BYTES)).toBe(AD_GUID);
    expect(guidBytes(AD_GUID)!.equals(AD_GUID_BYTES)).toBe(true);
    expect(stableIdOf({ dn: "CN=Anna", objectGUID: AD_GUID_BYTES } as unknown as Entry, "objectGUID")).toBe(AD_GUID);
    expect(guidText(Buffer.alloc(15))).toBeUndefined();
    expect(guidBytes("not-a-guid")).toBeUndefined();
  });

  it("takes entryUUID as it is, whatever case the server spelled the attribute in", () => {
    expect(stableIdOf({ dn: "uid=anna", entryuuid: "43c68a44-8083-1041-9f6f-0b74accd1677" }, "entryUUID")).toBe("43c68a44-8083-1041-9f6f-0b74accd1677");
    expect(stableIdOf({ dn: "uid=anna" }, "entryUUID")).toBeUndefined();
  });
});

describe("filters", () => {
  const d = { userFilter: "(objectClass=inetOrgPerson)" };
  it("escapes what a person typed (RFC 4515), so a login cannot widen the search", () => {
    expect(entryFilter(d, "uid", "anna")).toBe("(&(objectClass=inetOrgPerson)(uid=anna))");
    expect(entryFilter(d, "uid", "*)(uid=*")).toBe("(&(objectClass=inetOrgPerson)(uid=\\2a\\29\\28uid=\\2a))");
    expect(entryFilter(d, "sAMAccountName", "a\\b\u0000")).toBe("(&(objectClass=inetOrgPerson)(sAMAccountName=a\\5cb\\00))");
  });

  it("searches objectGUID by its bytes", () => {
    expect(entryFilter({ userFilter: "(objectCategory=person)" }, "objectGUID", AD_GUID)).toBe("(&(objectCategory=person)(objectGUID=\\ff\\19\\96\\6f\\86\\8b\\11\\d0\\b4\\2d\\00\\c0\\4f\\c9\\64\\ff))");
  });

  it("reads the login, the id and every mapped attribute, once each", () => {
    expect(attributesToRead({ loginAttribute: "uid", idAttribute: "entryUUID", attributeMap: [{ from: "mail", to: "email", verified: false }, { from: "uid", to: "nickname", verified: false }] })).toEqual(["uid", "entryUUID", "mail"]);
  });
});

describe("attribute rules", () => {
  const entry = { dn: "uid=anna", mail: " Anna@Example.ORG ", mobile: ["+7 (900) 555-01-02", "+7 900 000 00 00"], givenName: "Anna", title: "", telephoneNumber: "+44 20 7946 0000" } as Entry;
  it("copies values, transforms e-mails and phones, marks them confirmed only when the directory is trusted to", () => {
    expect(
      catalogAttributesOf(entry, [
        { from: "givenName", to: "given_name", verified: false },
        { from: "mail", to: "email", transform: "email", verified: true },
        { from: "mobile", to: "phone_number", transform: "phone", verified: false },
        { from: "givenName", to: "nickname", transform: "lowercase", verified: false },
      ]),
    ).toEqual({ given_name: "Anna", email: { value: "anna@example.org", vrf: true }, phone_number: { value: "79005550102", vrf: false }, nickname: "anna" });
  });

  it("leaves out what is empty, missing or cannot be read as asked", () => {
    expect(
      catalogAttributesOf(entry, [
        { from: "title", to: "job_title", verified: false },
        { from: "department", to: "department", verified: false },
        { from: "telephoneNumber", to: "phone_number", transform: "phone", verified: false },
        { from: "givenName", to: "email", transform: "email", verified: false },
      ]),
    ).toEqual({});
  });
});

describe("directory URLs", () => {
  it("takes ldaps:// anywhere, ldap:// with StartTLS anywhere, plain ldap:// only on loopback", () => {
    expect(directoryEndpoint("ldaps://dc1.corp.example", true)).toEqual({ secure: true, host: "dc1.corp.example", port: 636 });
    expect(directoryEndpoint("ldap://dc1.corp.example:3268", true)).toEqual({ secure: false, host: "dc1.corp.example", port: 3268 });
    expect(directoryEndpoint("ldap://127.0.0.1:3890", false)).toEqual({ secure: false, host: "127.0.0.1", port: 3890 });
    expect(directoryEndpoint("ldap://[::1]", false)).toEqual({ secure: false, host: "::1", port: 389 });
    expect(directoryEndpoint("ldap://dc1.corp.example", false)).toMatchObject({ problem: expect.stringMatching(/only to a loopback address/) });
    expect(directoryEndpoint("https://dc1.corp.example", true)).toEqual({ problem: "must be ldaps:// or ldap://" });
    expect(directoryEndpoint("ldaps://reader:pw@dc1.corp.example/dc=corp", true)).toMatchObject({ problem: expect.stringMatching(/only the scheme, host and port/) });
    expect(directoryEndpoint("ldaps://", true)).toMatchObject({ problem: expect.any(String) });
  });
});
