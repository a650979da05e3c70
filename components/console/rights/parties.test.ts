import { describe, expect, it } from "vitest";
import type { TRightDefinition } from "@/server/rights/rights.schemas";
import { browseHref, grantableRights, otherPartyTypes, pairOf, parseTags, partyFromSearch, recordOf, rowsOf } from "./parties.ts";

const def = (name: string, subjectKinds: TRightDefinition["subjectKinds"], objectKinds: TRightDefinition["objectKinds"]): TRightDefinition => ({
  name,
  description: { ru: "", en: "" },
  subjectKinds,
  objectKinds,
  builtin: false,
  grants: 0,
});
const user = { type: "user", id: "ivanov", ext: "" };
const app = { type: "its", id: "crm", ext: "" };
const group = { type: "grps", id: "g-1", ext: "orgs" };

describe("the rights browser's helpers", () => {
  it("offers the rights a party may hold or be held on, and the other party's kinds each admits", () => {
    const defs = [def("pwd", ["user"], ["user"]), def("report", ["user", "application"], ["group", "application"])];
    expect(grantableRights(defs, "its", "of").map((d) => d.name)).toEqual(["report"]);
    expect(grantableRights(defs, "user", "on").map((d) => d.name)).toEqual(["pwd"]);
    expect(grantableRights(defs, "its", "on").map((d) => d.name)).toEqual(["report"]);
    expect(otherPartyTypes(defs[1], "of")).toEqual(["its", "grps"]);
    expect(otherPartyTypes(defs[1], "on")).toEqual(["user", "its"]);
    expect(otherPartyTypes(undefined, "on")).toEqual([]);
  });

  it("builds the contract's record: subjectType only for an application, objectType for a group or an application", () => {
    expect(recordOf(user, user, ["pwd"], ["a"])).toEqual({ subject: "ivanov", object: "ivanov", rights: ["pwd"], tags: ["a"] });
    expect(recordOf(app, user, ["r"], ["a"])).toEqual({ subject: "crm", subjectType: "its", object: "ivanov", rights: ["r"], tags: ["a"] });
    expect(recordOf(user, app, ["r"], ["a"])).toEqual({ subject: "ivanov", object: "crm", objectType: "its", rights: ["r"], tags: ["a"] });
    expect(recordOf(user, group, ["r"], ["a"])).toEqual({ subject: "ivanov", object: "g-1", objectType: "grps", objectExt: "orgs", rights: ["r"], tags: ["a"] });
    expect(pairOf(user, app, "of")).toEqual([user, app]);
    expect(pairOf(user, app, "on")).toEqual([app, user]);
  });

  it("reads tags one per line, trimmed, each once; commas stay inside a tag", () => {
    expect(parseTags(" hr-17 \n\nproject x, phase 2\r\nhr-17\n")).toEqual(["hr-17", "project x, phase 2"]);
    expect(parseTags("  ")).toEqual([]);
  });

  it("flattens a panel into one row per party and right", () => {
    const rows = rowsOf([{ party: app, rights: [{ name: "r", tags: ["a", "b"] }, { name: "w", tags: ["c"] }] }]);
    expect(rows.map((r) => [r.party.id, r.right, r.tags])).toEqual([["crm", "r", ["a", "b"]], ["crm", "w", ["c"]]]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
  });

  it("keeps the browsed party in the URL and refuses what the browser cannot pick", () => {
    const href = browseHref({ type: "its", id: "crm app&x", ext: "" });
    expect(href).toBe("/console/rights?type=its&id=crm+app%26x");
    expect(partyFromSearch(new URLSearchParams(href.split("?")[1]))).toEqual({ type: "its", id: "crm app&x", ext: "" });
    // A group is browsed with its profile.
    expect(partyFromSearch(new URLSearchParams(browseHref(group).split("?")[1]))).toEqual(group);
    expect(partyFromSearch(new URLSearchParams("type=nobody&id=x"))).toBeNull();
    expect(partyFromSearch(new URLSearchParams("type=user"))).toBeNull();
    expect(partyFromSearch(new URLSearchParams(`type=user&id=${"x".repeat(257)}`))).toBeNull();
  });
});
