import { describe, expect, it } from "vitest";
import { changesOf, draftsOf, newAttributesOf, valueOf } from "./attribute-drafts.ts";
import type { TAttributeDefView } from "./types.ts";

const def = (name: string, type: TAttributeDefView["type"]): TAttributeDefView => ({
  name,
  type,
  required: false,
  unique: false,
  unmodifiable: false,
  searchable: false,
  validators: {},
  aliases: [],
});

const CATALOG = [def("given_name", "string"), def("email", "email"), def("tags", "string_list"), def("age", "number"), def("vip", "boolean"), def("born", "date")];

describe("attribute drafts", () => {
  it("turns each type into the value the server expects", () => {
    expect(valueOf(def("age", "number"), { text: " 4,5 ", vrf: false })).toBe(4.5);
    expect(valueOf(def("age", "number"), { text: "many", vrf: false })).toBe("many");
    expect(valueOf(def("vip", "boolean"), { text: "false", vrf: false })).toBe(false);
    expect(valueOf(def("tags", "string_list"), { text: "a\n\n b \r\nc", vrf: false })).toEqual(["a", "b", "c"]);
    expect(valueOf(def("email", "email"), { text: " a@b.org ", vrf: true })).toEqual({ value: "a@b.org", vrf: true });
    expect(valueOf(def("given_name", "string"), { text: "  ", vrf: false })).toBeUndefined();
  });

  it("a new account gets only the filled fields", () => {
    const drafts = { given_name: { text: "Anna", vrf: false }, email: { text: "", vrf: true }, vip: { text: "true", vrf: false } };
    expect(newAttributesOf(CATALOG, drafts)).toEqual({ given_name: "Anna", vip: true });
  });

  it("a change sends what changed, null for what was cleared, nothing for what stayed", () => {
    const stored = { given_name: "Anna", email: { value: "a@b.org", vrf: false }, tags: ["x", "y"], age: 30, vip: true, born: "1990-01-02" };
    const drafts = draftsOf(CATALOG, stored);
    expect(changesOf(CATALOG, stored, drafts)).toEqual({});
    drafts.email = { text: "a@b.org", vrf: true };
    drafts.given_name = { text: "", vrf: false };
    drafts.tags = { text: "x\ny\nz", vrf: false };
    expect(changesOf(CATALOG, stored, drafts)).toEqual({ email: { value: "a@b.org", vrf: true }, given_name: null, tags: ["x", "y", "z"] });
  });
});
