import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error.ts";
import type { TGrantRow } from "../rights.repository.ts";
import { groupGrants } from "./console.ts";
import { toRightsOf, toRightsOn } from "./v3.ts";
import { decodeCursor, encodeCursor, toRightsOnV4 } from "./v4.ts";

const row = (subject: [string, string], object: [string, string, string?], rightName: string, tag: string): TGrantRow => ({
  subjectType: subject[0],
  subjectId: subject[1],
  objectType: object[0],
  objectId: object[1],
  objectExt: object[2] ?? "",
  rightName,
  tag,
});

describe("rights listings", () => {
  it("keys objects and subjects the contract's way: id, its|<app_id>, grps|<grp_id>|<profile>", () => {
    const rows = [
      row(["user", "ivanov"], ["grps", "g-1", "orgs"], "read", "a"),
      row(["user", "ivanov"], ["its", "crm"], "read", "a"),
      row(["user", "ivanov"], ["its", "crm"], "read", "b"),
      row(["user", "ivanov"], ["user", "petrov"], "change_password", "boss"),
    ];
    expect(toRightsOf(rows)).toEqual({ "grps|g-1|orgs": { read: ["a"] }, "its|crm": { read: ["a", "b"] }, petrov: { change_password: ["boss"] } });
    const on = [row(["its", "crm"], ["user", "petrov"], "read", "a"), row(["user", "ivanov"], ["user", "petrov"], "change_attrs", "x"), row(["user", "ivanov"], ["user", "petrov"], "change_attrs", "y"), row(["user", "ivanov"], ["user", "petrov"], "change_password", "x")];
    expect(toRightsOn(on)).toEqual({ "its|crm": ["read"], ivanov: ["change_attrs", "change_password"] });
    expect(toRightsOf([])).toEqual({});
  });

  it("groups a v4 page by subject with each right's tags, and hands out a cursor only when more follow", () => {
    const rows = [row(["its", "crm"], ["user", "p"], "read", "a"), row(["user", "ivanov"], ["user", "p"], "change_attrs", "x"), row(["user", "ivanov"], ["user", "p"], "change_attrs", "y")];
    const page = toRightsOnV4(rows, true);
    expect(page.items).toEqual([
      { subject: "crm", subjectType: "its", rights: [{ name: "read", tags: ["a"] }] },
      { subject: "ivanov", subjectType: "user", rights: [{ name: "change_attrs", tags: ["x", "y"] }] },
    ]);
    expect(decodeCursor(page.next!)).toEqual({ type: "user", id: "ivanov" });
    expect(toRightsOnV4(rows, false).next).toBeUndefined();
    expect(toRightsOnV4([], false)).toEqual({ items: [] });
  });

  it("refuses a cursor it did not hand out", () => {
    for (const bad of ["", "garbage", encodeCursor({ type: "grps", id: "x" }), Buffer.from("[1,2]").toString("base64url"), Buffer.from("{").toString("base64url")]) {
      expect(() => decodeCursor(bad), bad).toThrow(AppError);
    }
    expect(decodeCursor(encodeCursor({ type: "its", id: "a|b" }))).toEqual({ type: "its", id: "a|b" });
  });
});

describe("the console's rights browser", () => {
  it("groups rows by the other party, then by right with its tags, keeping the parties structured", () => {
    const rows = [
      row(["user", "ivanov"], ["grps", "g-1", "orgs"], "read", "a"),
      row(["user", "ivanov"], ["its", "crm|x"], "read", "a"),
      row(["user", "ivanov"], ["its", "crm|x"], "read", "b"),
      row(["user", "ivanov"], ["its", "crm|x"], "write", "a"),
      row(["user", "ivanov"], ["user", "petrov"], "change_password", "hr"),
    ];
    expect(groupGrants(rows, "of")).toEqual([
      { party: { type: "grps", id: "g-1", ext: "orgs" }, rights: [{ name: "read", tags: ["a"] }] },
      { party: { type: "its", id: "crm|x", ext: "" }, rights: [{ name: "read", tags: ["a", "b"] }, { name: "write", tags: ["a"] }] },
      { party: { type: "user", id: "petrov", ext: "" }, rights: [{ name: "change_password", tags: ["hr"] }] },
    ]);
  });

  it("groups by subject for the rights on a party, and gives nothing for no rows", () => {
    const rows = [row(["its", "crm"], ["user", "petrov"], "read", "sync"), row(["user", "ivanov"], ["user", "petrov"], "read", "a"), row(["user", "ivanov"], ["user", "petrov"], "read", "b")];
    expect(groupGrants(rows, "on")).toEqual([
      { party: { type: "its", id: "crm", ext: "" }, rights: [{ name: "read", tags: ["sync"] }] },
      { party: { type: "user", id: "ivanov", ext: "" }, rights: [{ name: "read", tags: ["a", "b"] }] },
    ]);
    expect(groupGrants([], "on")).toEqual([]);
  });
});
