import type { TLocale } from "../http/locale.ts";

/**
 * The password policy. It starts with NIST SP 800-63B's minimum-length rule; the account-security
 * work adds the contract's other rules (groups, history, dictionaries, age) with their params.
 */
export type TPasswordPolicy = { minLength: number; maxLength: number };
export const DEFAULT_POLICY: TPasswordPolicy = { minLength: 8, maxLength: 1024 };

export type TPolicyViolation = { rule: "to_short"; params: { low: number } } | { rule: "too_long"; params: { high: number } };

const TEXTS: Record<TPolicyViolation["rule"], Record<TLocale, (p: Record<string, number>) => string>> = {
  to_short: {
    ru: (p) => `Пароль должен содержать не менее ${p.low} символов`,
    en: (p) => `The password must be at least ${p.low} characters long`,
  },
  too_long: {
    ru: (p) => `Пароль должен содержать не более ${p.high} символов`,
    en: (p) => `The password must be at most ${p.high} characters long`,
  },
};

/** Length counts characters as people see them (code points), not UTF-16 units or bytes. */
export function checkPassword(password: string, policy: TPasswordPolicy = DEFAULT_POLICY): TPolicyViolation[] {
  const length = [...password].length;
  if (length < policy.minLength) return [{ rule: "to_short", params: { low: policy.minLength } }];
  if (length > policy.maxLength) return [{ rule: "too_long", params: { high: policy.maxLength } }];
  return [];
}

export function describeViolation(v: TPolicyViolation, locale: TLocale): string {
  return TEXTS[v.rule][locale](v.params as Record<string, number>);
}
