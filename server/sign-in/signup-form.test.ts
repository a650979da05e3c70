import { describe, expect, it } from "vitest";
import { buildCatalog } from "../attributes/attributes.service.ts";
import { readSignUpForm, signUpFields, signUpValuesFromClaims } from "./signup-form.ts";

const row = (name: string, type: string, extra: { required?: boolean; validators?: object } = {}) => ({
  name,
  type,
  required: extra.required ?? false,
  unique: false,
  unmodifiable: false,
  searchable: false,
  validators: extra.validators ?? {},
  aliases: [],
  position: 0,
  builtin: false,
});

const catalog = buildCatalog([
  row("sub", "string", { required: true }),
  row("family_name", "string", { validators: { maxLength: 200 } }),
  row("given_name", "string"),
  row("locked", "boolean"),
  row("phone_number", "phone"),
  row("email", "email"),
  row("employee_id", "number", { required: true }),
  row("nickname", "string"),
  row("accepted_terms", "boolean", { required: true }),
]);

const form = (o: Record<string, string>) => new Map(Object.entries(o));

describe("sign-up form", () => {
  it("asks for names and contacts, and other attributes only when the catalog requires them; never sub or locked", () => {
    expect(signUpFields(catalog).map((f) => [f.name, f.required])).toEqual([
      ["family_name", false],
      ["given_name", false],
      ["phone_number", false],
      ["email", false],
      ["employee_id", true],
      ["accepted_terms", true],
    ]);
    expect(signUpFields(catalog)[0]!.maxLength).toBe(200);
  });

  it("turns what was typed into registration attributes: contacts unconfirmed, empty inputs left out", () => {
    const r = readSignUpForm(
      signUpFields(catalog),
      form({ family_name: " Иванов ", given_name: "", email: "a@b.ru", employee_id: "42", accepted_terms: "on", password: "pass word", password_repeat: "pass word", sub: "chosen" }),
    );
    expect(r.problems).toEqual([]);
    expect(r.password).toBe("pass word");
    expect(r.attrs).toEqual({ family_name: "Иванов", email: { value: "a@b.ru", verified: false }, employee_id: 42, accepted_terms: true });
    expect(r.values).toMatchObject({ family_name: "Иванов", given_name: "", email: "a@b.ru" });
    expect(r.values).not.toHaveProperty("password");
  });

  it("wants a contact and the password twice, and leaves a number it cannot read to the registration's check", () => {
    const r = readSignUpForm(signUpFields(catalog), form({ employee_id: "forty", password: "one", password_repeat: "two" }));
    expect(r.problems).toEqual([
      { field: "email", code: "contact_required" },
      { field: "password_repeat", code: "password_mismatch" },
    ]);
    expect(r.attrs).toEqual({ employee_id: "forty", accepted_terms: false });
    expect(readSignUpForm(signUpFields(catalog), form({ phone_number: "79160000000" })).problems).toEqual([{ field: "password", code: "password_required" }]);
  });
});

describe("sign-up values from an external account's claims", () => {
  it("takes the names and contacts the form has, as strings only", () => {
    const claims = { sub: "ext-1", email: "ivan@corp.example", given_name: "Ivan", family_name: "", phone_number: 79990000001, middle_name: "Petrovich", locked: "true" };
    expect(signUpValuesFromClaims(claims, ["family_name", "given_name", "email", "phone_number", "locked"])).toEqual({ given_name: "Ivan", email: "ivan@corp.example" });
  });
});
