import type { TAttrValue, TContact } from "../attributes/attribute-values.ts";
import { readAccount } from "../users/users.service.ts";

export type TContactState = { value: string; verified: boolean };

/** What the portal's overview shows of the signed-in person's own account. */
export type TOverview = {
  sub: string;
  familyName: string | null;
  givenName: string | null;
  middleName: string | null;
  email: TContactState | null;
  phone: TContactState | null;
};

const text = (v: TAttrValue | undefined) => (typeof v === "string" && v !== "" ? v : null);

function contact(v: TAttrValue | undefined): TContactState | null {
  if (typeof v !== "object" || Array.isArray(v)) return null;
  const c = v as TContact;
  return { value: c.value, verified: c.vrf };
}

export async function readOverview(sub: string): Promise<TOverview> {
  const { id, attrs } = await readAccount(sub);
  return {
    sub: id,
    familyName: text(attrs.family_name),
    givenName: text(attrs.given_name),
    middleName: text(attrs.middle_name),
    email: contact(attrs.email),
    phone: contact(attrs.phone_number),
  };
}
