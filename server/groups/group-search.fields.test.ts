import { describe, expect, it } from "vitest";
import { buildCatalog } from "../attributes/attributes.service.ts";
import { groupFields, memberFields } from "./group-search.fields.ts";
import type { TGroupProfile } from "./groups.schemas.ts";

const profile = (name: string, attributes: [string, TGroupProfile["attributes"][number]["type"]][]): TGroupProfile => ({
  name,
  description: { ru: "", en: "" },
  attributes: attributes.map(([n, type]) => ({ name: n, type, required: false })),
});

describe("group search fields", () => {
  it("are id, profile and the union of the schemas; a name with several types is a string without containment", () => {
    const f = groupFields([profile("orgs", [["name", "string"], ["size", "number"], ["tags", "string_list"]]), profile("teams", [["name", "string"], ["size", "string"]])]);
    expect(Object.keys(f).sort()).toEqual(["id", "name", "profile", "size", "tags"]);
    expect(f.name).toMatchObject({ type: "string", jsonb: { key: "name" } });
    expect(f.tags).toMatchObject({ type: "string_list", jsonb: { key: "tags" } });
    expect(f.size!.type).toBe("string");
    expect(f.size!.jsonb).toBeUndefined();
    // Attribute names are bound values, not SQL text.
    expect(f.name!.sql.values).toEqual(["name"]);
  });

  it("for members are sub and the readable catalog attributes, contacts by value", () => {
    const catalog = buildCatalog(
      [
        ["sub", "string"],
        ["locked", "boolean"],
        ["email", "email"],
        ["family_name", "string"],
        ["birthdate", "date"],
      ].map(([name, type]) => ({ name: name!, type: type!, required: false, unique: false, unmodifiable: false, searchable: false, validators: {}, aliases: [], builtin: false, position: 0 })),
    );
    expect(Object.keys(memberFields(catalog, null)).sort()).toEqual(["birthdate", "email", "family_name", "locked", "sub"]);
    expect(memberFields(catalog, null).email!.sql.text).toContain("->> 'value'");
    expect(Object.keys(memberFields(catalog, new Set(["sub", "email"]))).sort()).toEqual(["email", "sub"]);
  });
});
