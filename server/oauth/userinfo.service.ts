import type { TAttrValue, TContact } from "../attributes/attribute-values.ts";
import { derivedOncePer } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import type { TAccount } from "../users/account.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { serializedOnce, type JsonText } from "../http/json-text.ts";

const isContact = (v: TAttrValue | undefined): v is TContact => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: TAttrValue | undefined) => (typeof v === "string" && v !== "" ? v : undefined);

/** OIDC Core §5.4: the claims each scope releases. */
const PROFILE_CLAIMS = ["family_name", "given_name", "middle_name"] as const;

/**
 * The userinfo response (OIDC Core §5.3) for a user token: `sub` always, then the claims of the
 * scopes it holds. Phones go out in E.164 (+7…), as the standard's phone_number expects. From
 * memory without a Promise when the account is cached (cache/maybe-promise.ts).
 */
/** The claims as the userinfo endpoint answers them, serialized once per shared answer. */
export function userinfoAnswer(userId: string, scopes: readonly string[]): TMaybePromise<JsonText> {
  return andThen(userinfoClaims(userId, scopes), serializedOnce);
}

export function userinfoClaims(userId: string, scopes: readonly string[]): TMaybePromise<Readonly<Record<string, string | boolean>>> {
  return andThen(accountSnapshot(userId), (snap) => {
    // A locked account's tokens serve nothing, as findActiveAccount says.
    if (!snap || snap.account.locked) throw new AppError("auth.token_invalid", { params: { reason: "account" } });
    return claimsOf(snap.account, scopes);
  });
}

// Made once per cached account and token (a verified token's scopes are one frozen list,
// caller/authenticate.ts): every request with that token gets the same frozen claims until the account changes.
const claimsOf = derivedOncePer((account: TAccount, scopes: readonly string[]) => {
  const claims: Record<string, string | boolean> = { sub: account.id };
  if (scopes.includes("profile")) {
    for (const name of PROFILE_CLAIMS) {
      const v = text(account.attrs[name]);
      if (v) claims[name] = v;
    }
  }
  const email = account.attrs.email;
  if (scopes.includes("email") && isContact(email)) Object.assign(claims, { email: email.value, email_verified: email.vrf });
  const phone = account.attrs.phone_number;
  if (scopes.includes("phone") && isContact(phone)) Object.assign(claims, { phone_number: `+${phone.value}`, phone_number_verified: phone.vrf });
  return Object.freeze(claims);
});
