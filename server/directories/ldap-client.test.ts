import { describe, expect, it } from "vitest";
import { passwordModifyValue, refusedThere, unicodePwd } from "./ldap-client.ts";

describe("password writes", () => {
  it("encodes RFC 3062's request as BER: the DN [0], the old password [1] when given, the new one [2]", () => {
    expect(passwordModifyValue("uid=a", "new", "old").toString("hex")).toBe("3011" + "8005" + Buffer.from("uid=a").toString("hex") + "8103" + Buffer.from("old").toString("hex") + "8203" + Buffer.from("new").toString("hex"));
    expect(passwordModifyValue("uid=a", "new").toString("hex")).toBe("300c" + "8005" + Buffer.from("uid=a").toString("hex") + "8203" + Buffer.from("new").toString("hex"));
  });

  it("uses BER's long form past 127 bytes, and counts UTF-8 bytes, not characters", () => {
    const dn = `uid=${"я".repeat(100)}`; // 204 bytes
    const value = passwordModifyValue(dn, "p");
    // The DN's field is 3 + 204 bytes (a long-form length), the new password's 3: 210 = 0xd2.
    expect(value.subarray(0, 3).toString("hex")).toBe("3081d2");
    expect(value.subarray(3, 6).toString("hex")).toBe("8081cc"); // 204 = 0xcc
    expect(value.subarray(6, 6 + 204).toString("utf8")).toBe(dn);
  });

  it("gives Active Directory the password in double quotes, UTF-16LE", () => {
    expect(unicodePwd("Pä1").toString("hex")).toBe("22005000e40031002200");
  });
});

describe("Active Directory's bind diagnostics", () => {
  it("tells a locked, disabled or expired account from a wrong password", () => {
    const diag = (data: string) => `80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data ${data}, v4563`;
    for (const data of ["775", "533", "701", "532", "773"]) expect(refusedThere(diag(data))).toBe(true);
    // 52e: a wrong password; 525: no such user. Both are a wrong password to the person.
    for (const data of ["52e", "525", "7750"]) expect(refusedThere(diag(data))).toBe(false);
    expect(refusedThere("Invalid Credentials")).toBe(false);
  });
});
