import { describe, expect, it } from "vitest";
import { indexKeys, normalizeEmail, normalizePhone, parseContact, parseValue } from "./attribute-values.ts";
import type { TAttributeDef } from "./attributes.schemas.ts";

const def = (over: Partial<TAttributeDef>): TAttributeDef => ({
  name: "a",
  type: "string",
  required: false,
  unique: false,
  unmodifiable: false,
  searchable: false,
  validators: {},
  aliases: [],
  ...over,
});

describe("phone numbers", () => {
  it.each([
    ["79991234567", "79991234567"],
    ["+79991234567", "79991234567"],
    ["89991234567", "79991234567"],
    ["+7 (999) 123-45-67", "79991234567"],
    ["8 999 123 45 67", "79991234567"],
  ])("normalises %s to 7XXXXXXXXXX", (raw, want) => expect(normalizePhone(raw)).toBe(want));

  it.each(["9991234567", "+19991234567", "7999123456", "799912345678", "7999abc4567", "", "+7"])("refuses %s", (raw) =>
    expect(normalizePhone(raw)).toBeUndefined(),
  );
});

describe("e-mail addresses", () => {
  it("accepts ordinary addresses and trims them", () => {
    expect(normalizeEmail(" Ivan.Petrov+tag@Example.ru ")).toBe("Ivan.Petrov+tag@Example.ru");
    expect(normalizeEmail("иван@пример.рф")).toBe("иван@пример.рф");
  });
  it.each(["no-at.example.com", "a@b", "a b@c.ru", "a@@c.ru", "<a>@c.ru", "a@c.r", `${"x".repeat(250)}@c.ru`])("refuses %s", (raw) =>
    expect(normalizeEmail(raw)).toBeUndefined(),
  );
});

describe("parseContact", () => {
  const phone = def({ name: "phone_number", type: "phone" });
  it("reads {value, vrf} in v3 and {value, verified} at registration", () => {
    expect(parseContact(phone, "phone_number", { value: "+79991234567", vrf: true }, "vrf")).toEqual({ ok: true, value: { value: "79991234567", vrf: true } });
    expect(parseContact(phone, "phone_number", { value: "89991234567", verified: false }, "verified")).toEqual({ ok: true, value: { value: "79991234567", vrf: false } });
  });
  it("takes a bare string in v1 as unconfirmed", () => {
    expect(parseContact(phone, "phone_number", "79991234567", "bare")).toEqual({ ok: true, value: { value: "79991234567", vrf: false } });
  });
  it("refuses the other spelling of the flag, a non-boolean flag and a bad number", () => {
    expect(parseContact(phone, "phone_number", { value: "79991234567", verified: true }, "vrf")).toMatchObject({ ok: false, item: { pos: "phone_number.verified" } });
    expect(parseContact(phone, "phone_number", { value: "79991234567", vrf: "yes" }, "vrf")).toMatchObject({ ok: false, item: { pos: "phone_number.vrf" } });
    expect(parseContact(phone, "phone_number", { value: "12345" }, "vrf")).toMatchObject({ ok: false, item: { error: "wrong_value", pos: "phone_number" } });
    expect(parseContact(phone, "phone_number", "79991234567", "vrf")).toMatchObject({ ok: false });
  });
});

describe("parseValue", () => {
  it("applies length, pattern and format validators to strings", () => {
    const d = def({ validators: { minLength: 2, maxLength: 5, pattern: "^[A-Я]", format: undefined } });
    expect(parseValue(d, "a", "Иван")).toEqual({ ok: true, value: "Иван" });
    expect(parseValue(d, "a", "И")).toMatchObject({ ok: false, item: { desc: "must be at least 2 characters" } });
    expect(parseValue(d, "a", "Иванов")).toMatchObject({ ok: false, item: { desc: "must be at most 5 characters" } });
    expect(parseValue(d, "a", "иван")).toMatchObject({ ok: false });
    expect(parseValue(def({ validators: { format: "digits" } }), "a", "12a")).toMatchObject({ ok: false, item: { desc: "must be a digits" } });
    expect(parseValue(def({}), "a", 5)).toMatchObject({ ok: false, item: { desc: "must be a string" } });
  });
  it("runs patterns in linear time: a pattern that backtracks exponentially in JavaScript answers at once", () => {
    // With RegExp this call would not return within the test's timeout (2^900 paths).
    const d = def({ validators: { pattern: "^(a+)+$" } });
    expect(parseValue(d, "a", `${"a".repeat(900)}!`)).toMatchObject({ ok: false, item: { desc: "does not match the pattern ^(a+)+$" } });
    expect(parseValue(d, "a", "a".repeat(900))).toEqual({ ok: true, value: "a".repeat(900) });
  });
  it("reads JavaScript's \\u escapes as RE2's, so a Cyrillic range written for RegExp still works", () => {
    const d = def({ validators: { pattern: "^[\\u0410-\\u042F][\\u0430-\\u044F]+$" } });
    expect(parseValue(d, "a", "Иван")).toEqual({ ok: true, value: "Иван" });
    expect(parseValue(d, "a", "Ivan")).toMatchObject({ ok: false, item: { desc: expect.stringMatching(/^does not match the pattern/) } });
  });
  it("fails closed, and says why, on a stored pattern RE2 refuses", () => {
    const d = def({ validators: { pattern: "^(a)\\1$" } });
    expect(parseValue(d, "a", "aa")).toMatchObject({ ok: false, item: { desc: "the attribute's pattern is not supported any more; an administrator must change it" } });
  });
  it("checks booleans, numbers, dates and string lists", () => {
    expect(parseValue(def({ type: "boolean" }), "a", "true")).toMatchObject({ ok: false });
    expect(parseValue(def({ type: "number" }), "a", Number.NaN)).toMatchObject({ ok: false });
    expect(parseValue(def({ type: "number" }), "a", 4.5)).toEqual({ ok: true, value: 4.5 });
    expect(parseValue(def({ type: "date" }), "a", "2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
    expect(parseValue(def({ type: "date" }), "a", "2023-02-29")).toMatchObject({ ok: false });
    expect(parseValue(def({ type: "string_list" }), "a", ["x", 1])).toMatchObject({ ok: false, item: { pos: "a.1" } });
    expect(parseValue(def({ type: "string_list" }), "a", ["x", "y"])).toEqual({ ok: true, value: ["x", "y"] });
  });
  it("indexes lower-cased values, one key per distinct list item", () => {
    expect(indexKeys({ value: "Ivan@Example.RU", vrf: true })).toEqual(["ivan@example.ru"]);
    expect(indexKeys(["A", "a", "B"])).toEqual(["a", "b"]);
  });
});
