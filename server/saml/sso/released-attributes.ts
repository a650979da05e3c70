import type { TAttrValue, TContact } from "../../attributes/attribute-values.ts";
import { groupIdsOfAccount } from "../../groups/members.service.ts";
import { listGrantRows } from "../../rights/listings.service.ts";
import type { TAccount } from "../../users/account.ts";
import type { TAttributeRule, TServiceProvider } from "../sps/service-providers.repository.ts";
import type { TAttribute } from "./response-builder.ts";

/*
 * What a service provider is told about the person: the attribute statement of its assertion, and
 * the same release in the words of a consent (the scopes the consent page and the portal name).
 */

/**
 * The attributes a provider gets when it names none: the address only once confirmed (SAML has no
 * email_verified, and providers match accounts by it), and the names. Not the account's sub: it is
 * the same for every provider, and would undo the pairwise persistent NameID.
 */
const DEFAULT_ATTRIBUTES: TAttributeRule[] = [
  { name: "email", from: "email" },
  { name: "given_name", from: "given_name" },
  { name: "family_name", from: "family_name" },
];

const rulesOf = (sp: TServiceProvider): TAttributeRule[] => (sp.attributeMap.length ? sp.attributeMap : DEFAULT_ATTRIBUTES);

export const isContact = (v: TAttrValue | undefined): v is TContact => typeof v === "object" && v !== null && !Array.isArray(v);

/** The values of one rule: a catalog attribute (a contact only once confirmed), the person's groups, or their rights on this application. */
async function valuesOf(from: string, account: TAccount, sp: TServiceProvider): Promise<string[]> {
  if (from === "groups") return [...(await groupIdsOfAccount(account.id))];
  if (from === "rights") {
    const held = await listGrantRows("of", { type: "user", id: account.id });
    return [...new Set(held.filter((g) => g.objectType === "its" && g.objectId === sp.id).map((g) => g.rightName))];
  }
  const v = account.attrs[from];
  if (isContact(v)) return v.vrf ? [from === "phone_number" ? `+${v.value}` : v.value] : [];
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string") return v ? [v] : [];
  if (typeof v === "number" || typeof v === "boolean") return [String(v)];
  return [];
}

export async function attributesOf(account: TAccount, sp: TServiceProvider): Promise<TAttribute[]> {
  const out: TAttribute[] = [];
  for (const rule of rulesOf(sp)) {
    const values = await valuesOf(rule.from, account, sp);
    if (values.length) out.push({ name: rule.name, values, friendlyName: rule.friendlyName, nameFormat: rule.nameFormat });
  }
  return out;
}

const PROFILE = new Set(["name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "picture", "birthdate", "gender", "locale", "zoneinfo"]);

/**
 * The release as consent scopes: "openid" for the NameID ("email" too for an e-mail NameID), the
 * OpenID scopes where an attribute is one of theirs, "groups" and "rights", and `attribute:<name>`
 * for any other. A provider sent a scope more than the person allowed asks again, as an OAuth
 * client asking for a new scope does; a name more within "profile" is not a new scope.
 */
export function consentScopesOf(sp: TServiceProvider, nameIdFormat: string): string[] {
  // An e-mail NameID sends the address whatever the attributes say (the provider may ask for it in any request).
  const scopes = new Set(nameIdFormat === "email" ? ["openid", "email"] : ["openid"]);
  for (const { from } of rulesOf(sp)) {
    if (from === "email") scopes.add("email");
    else if (from === "phone_number") scopes.add("phone");
    else if (PROFILE.has(from)) scopes.add("profile");
    else if (from === "groups" || from === "rights") scopes.add(from);
    else scopes.add(`attribute:${from}`);
  }
  return [...scopes];
}
