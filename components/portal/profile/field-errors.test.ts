import { describe, expect, it } from "vitest";
import { parseContact, parseValue } from "@/server/attributes/attribute-values";
import { ZAttributeDef, type TAttributeDefInput } from "@/server/attributes/attributes.schemas";
import { buildCatalog } from "@/server/attributes/attributes.service";
import { planChanges } from "@/server/users/account-changes";
import { fillIn } from "../../i18n.ts";
import { fieldProblems, fieldProblemWords, type TFieldItem } from "./field-errors.ts";
import { PROFILE_TEXT } from "./i18n.ts";

const def = (d: TAttributeDefInput) => ZAttributeDef.parse(d);
const problem = (r: { ok: boolean; item?: TFieldItem }) => r.item!;

// The server's own checks produce the sentences, so a change of wording there fails here first.
const SERVER_ITEMS: [string, TFieldItem][] = [
  ["min length", problem(parseValue(def({ name: "a", type: "string", validators: { minLength: 3 } }), "a", "x"))],
  ["max length", problem(parseValue(def({ name: "a", type: "string", validators: { maxLength: 2 } }), "a", "xyz"))],
  ["pattern", problem(parseValue(def({ name: "a", type: "string", validators: { pattern: "^a+$" } }), "a", "b"))],
  ["uri", problem(parseValue(def({ name: "a", type: "string", validators: { format: "uri" } }), "a", "nope"))],
  ["uuid", problem(parseValue(def({ name: "a", type: "string", validators: { format: "uuid" } }), "a", "nope"))],
  ["digits", problem(parseValue(def({ name: "a", type: "string", validators: { format: "digits" } }), "a", "12a"))],
  ["number", problem(parseValue(def({ name: "a", type: "number" }), "a", "ten"))],
  ["date", problem(parseValue(def({ name: "a", type: "date" }), "a", "2001-02-30"))],
  ["list", problem(parseValue(def({ name: "a", type: "string_list" }), "a", Array(101).fill("x")))],
  ["list item", problem(parseValue(def({ name: "a", type: "string_list", validators: { maxLength: 1 } }), "a", ["ok", "xx"]))],
  ["phone", problem(parseContact(def({ name: "phone_number", type: "phone" }), "phone_number", { value: "12345", vrf: false }, "vrf"))],
  ["email", problem(parseContact(def({ name: "email", type: "email" }), "email", { value: "nope", vrf: false }, "vrf"))],
];

function planItems(): TFieldItem[] {
  const catalog = buildCatalog(
    (
      [
        { name: "req", type: "string", required: true },
        { name: "fixed", type: "string", unmodifiable: true },
        { name: "hidden", type: "string" },
      ] satisfies TAttributeDefInput[]
    ).map((d) => ({ ...def(d), position: 0, builtin: false })),
  );
  const opts = { contactFlag: "vrf" as const, confirmUnverified: true, allowed: new Set(["req", "fixed"]), creating: false };
  return planChanges(catalog, { req: null, fixed: "x", hidden: "y", nothing: 1 }, opts).items;
}

describe("field problems in words", () => {
  it.each(SERVER_ITEMS)("knows the server's sentence for %s", (_name, item) => {
    expect(fieldProblemWords(item)).not.toBeNull();
  });

  it("knows the users service's refusals and a taken address", () => {
    const items = [...planItems(), { error: "contact_use_violation", desc: "this email is already used by another account", pos: "email" }];
    expect(items.map((i) => fieldProblemWords(i)?.key)).toEqual(["err.required", "err.notEditable", "err.notEditable", "err.notEditable", "err.taken"]);
  });

  it("says them in Russian and English with their numbers, keyed by field, the first per field", () => {
    const items = [SERVER_ITEMS[1]![1], SERVER_ITEMS[9]![1], { error: "wrong_value", desc: "something new", pos: "other" }];
    for (const lang of ["ru", "en"] as const) {
      const u = (key: keyof (typeof PROFILE_TEXT)["en"], params?: Record<string, string>) => fillIn(PROFILE_TEXT[lang][key], params);
      expect(fieldProblems(items, u)).toEqual({ a: lang === "ru" ? "Не длиннее 2 символов." : "At most 2 characters.", other: "something new" });
    }
  });
});
