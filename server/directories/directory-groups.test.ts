import { FilterParser } from "ldapts";
import { describe, expect, it } from "vitest";
import { ZDirectoryGroups } from "./directory.schemas.ts";
import { dnKey, expandNesting, groupIdFor, groupsOfMemberFilter, parentsFilter, peopleInChainFilter } from "./directory-groups.ts";

// The filters that find a person's groups and a group's people (OpenLDAP's and Active Directory's),
// the ids groups get here, and the expansion of nested groups.

const openldap = ZDirectoryGroups.parse({ baseDn: "ou=groups,dc=example,dc=org", nesting: "expand" });
const ad = ZDirectoryGroups.parse({ baseDn: "OU=Groups,DC=corp,DC=example,DC=com", filter: "(objectClass=group)", nesting: "in_chain" });
// A DN with every character RFC 4515 has escaped in a filter: ( ) * \ and NUL.
const ODD_DN = "CN=R&D (Moscow)*,OU=Staff\\, Contractors,DC=corp,DC=example,DC=com";
const ODD_ESCAPED = "CN=R&D \\28Moscow\\29\\2a,OU=Staff\\5c, Contractors,DC=corp,DC=example,DC=com";

describe("filters", () => {
  it("finds a person's groups by their DN as a member, the DN escaped (RFC 4515)", () => {
    expect(groupsOfMemberFilter(openldap, "uid=anna,ou=people,dc=example,dc=org")).toBe("(&(objectClass=groupOfNames)(member=uid=anna,ou=people,dc=example,dc=org))");
    expect(groupsOfMemberFilter({ ...openldap, memberAttribute: "uniqueMember", filter: "(objectClass=groupOfUniqueNames)" }, ODD_DN)).toBe(`(&(objectClass=groupOfUniqueNames)(uniqueMember=${ODD_ESCAPED}))`);
  });

  it("asks Active Directory to follow nested groups with LDAP_MATCHING_RULE_IN_CHAIN, the DN escaped", () => {
    const f = groupsOfMemberFilter(ad, ODD_DN);
    expect(f).toBe(`(&(objectClass=group)(member:1.2.840.113556.1.4.1941:=${ODD_ESCAPED}))`);
    // A filter the directory can parse, naming the DN as it is.
    expect(FilterParser.parseString(f).toString()).toBe(f);
    // The people of a group, nested ones included: a search of the user filter by memberOf in chain.
    expect(peopleInChainFilter({ userFilter: "(&(objectCategory=person)(objectClass=user))" }, "CN=Staff*,DC=corp")).toBe("(&(&(objectCategory=person)(objectClass=user))(memberOf:1.2.840.113556.1.4.1941:=CN=Staff\\2a,DC=corp))");
  });

  it("finds the parents of groups one level up, in one search", () => {
    expect(parentsFilter(openldap, ["cn=a,ou=groups"])).toBe("(&(objectClass=groupOfNames)(member=cn=a,ou=groups))");
    expect(parentsFilter(openldap, ["cn=a,ou=groups", "cn=b*,ou=groups"])).toBe("(&(objectClass=groupOfNames)(|(member=cn=a,ou=groups)(member=cn=b\\2a,ou=groups)))");
  });
});

describe("group ids", () => {
  it("puts the prefix before the name; a space is _ and the name's hash tells it from one with _", () => {
    expect(groupIdFor("corp.", "engineering")).toBe("corp.engineering");
    expect(groupIdFor("ad.", "Domain Admins")).toMatch(/^ad\.Domain_Admins-[0-9a-f]{8}$/);
    expect(groupIdFor("ad.", "Domain_Admins")).toBe("ad.Domain_Admins");
    expect(new Set(["Domain Admins", " Domain   Admins ", "Domain_Admins"].map((n) => groupIdFor("ad.", n))).size).toBe(3);
    expect(groupIdFor("", "backend")).toBe("backend");
  });

  it("gives a name with other characters a hash, so that two such names never share an id", () => {
    const a = groupIdFor("corp.", "Разработка")!;
    const b = groupIdFor("corp.", "Продажи")!;
    expect(a).toMatch(/^corp\.[0-9a-f]{8}$/);
    expect(b).toMatch(/^corp\.[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(groupIdFor("corp.", "R&D")).toMatch(/^corp\.RD-[0-9a-f]{8}$/);
    expect(groupIdFor("corp.", "x".repeat(300))).toHaveLength(128);
    expect(groupIdFor("corp.", "x".repeat(300))).not.toBe(groupIdFor("corp.", "x".repeat(301)));
  });

  it("makes no id that a group cannot have", () => {
    expect(groupIdFor("", "search")).toBeUndefined();
    expect(groupIdFor("", "-leading")).toBeUndefined();
    expect(groupIdFor("corp.", "")).toBeUndefined();
  });
});

describe("nested groups (expand)", () => {
  // engineering ⊃ backend ⊃ anna; cyclic-a ⊃ cyclic-b ⊃ cyclic-a.
  const direct = new Map<string, string[]>([
    ["engineering", ["boris", "backend"]],
    ["backend", ["anna"]],
    ["cyclic-a", ["vera", "cyclic-b"]],
    ["cyclic-b", ["kostya", "cyclic-a"]],
  ]);

  it("brings the members of nested groups, and never lists a group as a member", () => {
    const out = expandNesting(direct, ["engineering", "backend"]);
    expect([...out.get("engineering")!.members].sort()).toEqual(["anna", "boris"]);
    expect([...out.get("backend")!.members]).toEqual(["anna"]);
    expect(out.get("engineering")!.deep).toBe(false);
  });

  it("ends a cycle where a group is met again", () => {
    const out = expandNesting(direct, ["cyclic-a", "cyclic-b"]);
    expect([...out.get("cyclic-a")!.members].sort()).toEqual(["kostya", "vera"]);
    expect([...out.get("cyclic-b")!.members].sort()).toEqual(["kostya", "vera"]);
  });

  it("follows nesting down to the bound and says when a group went deeper", () => {
    // g0 ⊃ g1 ⊃ … ⊃ g5, each with one person p<i>.
    const chain = new Map(Array.from({ length: 6 }, (_, i) => [`g${i}`, [`p${i}`, ...(i < 5 ? [`g${i + 1}`] : [])]]));
    const two = expandNesting(chain, ["g0"], 2).get("g0")!;
    expect([...two.members].sort()).toEqual(["p0", "p1", "p2"]);
    expect(two.deep).toBe(true);
    const all = expandNesting(chain, ["g0"], 5).get("g0")!;
    expect(all.members.size).toBe(6);
    expect(all.deep).toBe(false);
  });

  it("compares DNs case-insensitively", () => {
    expect(dnKey(" UID=Anna,OU=People,DC=Example,DC=org ")).toBe("uid=anna,ou=people,dc=example,dc=org");
  });
});

describe("settings", () => {
  it("defaults to groupOfNames, cn, member, no nesting and a profile of their own", () => {
    expect(ZDirectoryGroups.parse({ baseDn: "ou=groups,dc=example,dc=org" })).toEqual({ baseDn: "ou=groups,dc=example,dc=org", filter: "(objectClass=groupOfNames)", nameAttribute: "cn", memberAttribute: "member", nesting: "none", profile: "directory_groups" });
  });

  it("refuses an id prefix a group id cannot have, naming the field", () => {
    const r = ZDirectoryGroups.safeParse({ baseDn: "ou=groups", idPrefix: "corp:" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(["idPrefix"]);
  });
});
