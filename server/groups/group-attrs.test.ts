import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error.ts";
import { fromGroupBodyV3 } from "./api/v3.ts";
import { checkGroupAttrs, uniqueValues } from "./group-attrs.ts";
import { ZGroupAttrDef, ZGroupId, ZGroupProfileImport, ZProfileName, type TGroupAttrDef } from "./groups.schemas.ts";

const schema: TGroupAttrDef[] = [
  { name: "name", type: "string", required: true, maxLength: 5 },
  { name: "inn", type: "string", required: false, unique: true },
  { name: "size", type: "number", required: false, unique: true },
  { name: "active", type: "boolean", required: false },
  { name: "founded", type: "date", required: false },
  { name: "tags", type: "string_list", required: false, maxLength: 3 },
];

function itemsOf(fn: () => unknown): { pos: string; error: string }[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("request.invalid_values");
    return (e as AppError).details.items!.map((i) => ({ pos: i.pos, error: i.error }));
  }
  throw new Error("expected a refusal");
}

describe("group attributes against the profile's schema", () => {
  it("accepts every type and drops nulls", () => {
    const attrs = { name: "Roga", inn: "77", size: 12.5, active: false, founded: "2001-02-28", tags: ["a", "bc"] };
    expect(checkGroupAttrs(schema, attrs)).toEqual(attrs);
    expect(checkGroupAttrs(schema, { ...attrs, founded: null })).toEqual({ name: "Roga", inn: "77", size: 12.5, active: false, tags: ["a", "bc"] });
  });

  it("names each bad attribute: unknown, wrong type, too long, missing required", () => {
    expect(itemsOf(() => checkGroupAttrs(schema, { bogus: 1, size: "12", active: "yes", founded: "2001-02-30", tags: ["abcd"], inn: 7 }))).toEqual([
      { pos: "bogus", error: "wrong_value" },
      { pos: "size", error: "wrong_value" },
      { pos: "active", error: "wrong_value" },
      { pos: "founded", error: "wrong_value" },
      { pos: "tags.0", error: "wrong_value" },
      { pos: "inn", error: "wrong_value" },
      { pos: "name", error: "wrong_value" },
    ]);
    expect(itemsOf(() => checkGroupAttrs(schema, { name: "toolong" }))).toEqual([{ pos: "name", error: "wrong_value" }]);
    expect(itemsOf(() => checkGroupAttrs(schema, { name: null }))).toEqual([{ pos: "name", error: "wrong_value" }]);
    expect(itemsOf(() => checkGroupAttrs(schema, { name: { nested: { deep: [1] } } }))).toEqual([{ pos: "name", error: "wrong_value" }]);
    expect(itemsOf(() => checkGroupAttrs(schema, { name: "a", size: Number.NaN, tags: "a" }))).toEqual([
      { pos: "size", error: "wrong_value" },
      { pos: "tags", error: "wrong_value" },
    ]);
    expect(itemsOf(() => checkGroupAttrs(schema, { name: "a", tags: Array.from({ length: 101 }, () => "x") }))).toEqual([{ pos: "tags", error: "wrong_value" }]);
  });

  it("hands unique values to the database as text or as numbers, for it to compare", () => {
    expect(uniqueValues(schema, { name: "x", inn: "AbC", size: 3 })).toEqual([
      { name: "inn", text: "AbC" },
      { name: "size", number: 3 },
    ]);
    expect(uniqueValues(schema, { name: "x" })).toEqual([]);
  });
});

describe("group schemas", () => {
  it("refuses attribute definitions that cannot work", () => {
    const ok = (v: unknown) => ZGroupAttrDef.safeParse(v).success;
    expect(ok({ name: "title", type: "string" })).toBe(true);
    expect(ok({ name: "Title", type: "string" })).toBe(false);
    expect(ok({ name: "id", type: "string" })).toBe(false);
    expect(ok({ name: "members", type: "string_list" })).toBe(false);
    expect(ok({ name: "x", type: "phone" })).toBe(false);
    expect(ok({ name: "x", type: "boolean", unique: true })).toBe(false);
    expect(ok({ name: "x", type: "number", maxLength: 3 })).toBe(false);
    expect(ok({ name: "x", type: "string", extra: 1 })).toBe(false);
    const dup = ZGroupProfileImport.safeParse({ name: "orgs", attributes: [{ name: "a", type: "string" }, { name: "a", type: "number" }] });
    expect(dup.success).toBe(false);
  });

  it("takes ids by the rules of an account's sub and keeps `search` free", () => {
    for (const id of ["g-1", "Org.42", "a@b+c_d"]) expect(ZGroupId.safeParse(id).success, id).toBe(true);
    for (const id of ["", "-x", ".", "..", "a b", "a/b", "search", "x".repeat(129), "ü"]) expect(ZGroupId.safeParse(id).success, id).toBe(false);
    expect(ZProfileName.safeParse("orgs").success).toBe(true);
    for (const p of ["Orgs", "search", "1x", "a-b"]) expect(ZProfileName.safeParse(p).success, p).toBe(false);
  });

  it("reads a v3 body: attributes flat, a read sent back is accepted, members refused", () => {
    const path = { profile: "orgs", id: "g-1" };
    expect(fromGroupBodyV3({ id: "g-1", profile: "orgs", instanceId: "v1", name: "A" }, path)).toEqual({ attrs: { name: "A" }, instanceId: "v1" });
    expect(itemsOf(() => fromGroupBodyV3({ id: "g-2", profile: "deps", members: [], instanceId: 5 }, path)).map((i) => i.pos)).toEqual(["instanceId", "id", "profile", "members"]);
  });
});
