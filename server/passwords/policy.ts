import type { TLocale } from "../http/locale.ts";
import { isCommonPassword } from "./dictionary.ts";
import type { TCharGroup, TPasswordPolicy } from "./policy.schemas.ts";

export type { TPasswordPolicy } from "./policy.schemas.ts";

/**
 * The default follows NIST SP 800-63B rev. 4: a minimum length of 15 when the password is the only
 * factor and 8 when a second factor stands behind it, long passphrases welcome (up to 1024
 * characters, never truncated), any Unicode, a check against common passwords, the last 5 passwords
 * refused again; no composition rule and no minimum age unless an administrator configures them.
 */
export const DEFAULT_POLICY: TPasswordPolicy = {
  minLength: 15,
  minLengthWithSecondFactor: 8,
  maxLength: 1024,
  groups: [],
  historySize: 5,
  minNewChars: 0,
  minAgeSec: 0,
  dictionary: true,
  stopWords: [],
};

export type TPolicyViolation =
  | { rule: "to_short"; params: { low: number } }
  | { rule: "too_long"; params: { high: number } }
  | { rule: "not_enough_groups"; params: { no_matched_groups: { desc: string; min_number_symbols: number }[] } }
  | { rule: "in_password_history"; params: Record<string, never> }
  | { rule: "eq_current"; params: Record<string, never> }
  | { rule: "not_enough_new_chars"; params: { minNew: number } }
  | { rule: "in_stop_dic"; params: { stop_word: string } }
  | { rule: "in_password_dic"; params: Record<string, never> }
  | { rule: "too_young"; params: { minAgeInSec: number } }
  | { rule: "id_store"; params: Record<string, never> };
export type TPolicyRule = TPolicyViolation["rule"];

/**
 * Rules compare the NFC form, case-folded where a dictionary is concerned: "é" typed as one code
 * point or as e + combining accent is the same character to the person typing it, so it counts once
 * towards the length and matches the same dictionary word. NFC rather than NFKC, because NFKC also
 * folds look-alikes (full-width digits, ligatures) that the person chose deliberately.
 */
export function normalizeForPolicy(password: string): string {
  return password.normalize("NFC");
}

const codePoints = (s: string) => [...s];

const GROUP_TESTS: Record<Exclude<TCharGroup["class"], undefined>, RegExp> = {
  lower: /^\p{Ll}$/u,
  upper: /^\p{Lu}$/u,
  letter: /^\p{L}$/u,
  digit: /^\p{Nd}$/u,
  // Anything that is neither a letter nor a digit: punctuation, symbols, spaces, emoji.
  symbol: /^[^\p{L}\p{Nd}]$/u,
};

function countInGroup(chars: string[], group: TCharGroup): number {
  if (group.chars !== undefined) {
    const set = new Set(codePoints(group.chars.normalize("NFC")));
    return chars.filter((c) => set.has(c)).length;
  }
  const test = GROUP_TESTS[group.class ?? "symbol"];
  return chars.filter((c) => test.test(c)).length;
}

function checkGroups(chars: string[], policy: TPasswordPolicy): TPolicyViolation[] {
  const needed = Math.min(policy.minGroups ?? policy.groups.length, policy.groups.length);
  if (needed === 0) return [];
  const missed = policy.groups.filter((g) => countInGroup(chars, g) < g.minNumberSymbols);
  if (policy.groups.length - missed.length >= needed) return [];
  return [{ rule: "not_enough_groups", params: { no_matched_groups: missed.map((g) => ({ desc: g.desc, min_number_symbols: g.minNumberSymbols })) } }];
}

function checkStopWords(folded: string, stopWords: string[]): TPolicyViolation[] {
  const hit = stopWords.find((w) => w.length > 0 && folded.includes(w.normalize("NFC").toLowerCase()));
  return hit === undefined ? [] : [{ rule: "in_stop_dic", params: { stop_word: hit } }];
}

/** Distinct characters of `next` that `current` does not have. */
export function countNewChars(next: string, current: string): number {
  const old = new Set(codePoints(normalizeForPolicy(current)));
  return new Set(codePoints(normalizeForPolicy(next)).filter((c) => !old.has(c))).size;
}

/** Who the password is for: whether the account's second factor is on, and (user mode) its current password. */
export type TPasswordHolder = { secondFactor: boolean; current?: string };

/**
 * The shortest password the account may choose. A second factor lowers it (a password that is not
 * the only thing between a guesser and the account may be shorter), never raises it: a policy whose
 * minLengthWithSecondFactor is above minLength means minLength for everybody.
 */
export function minimumLength(policy: TPasswordPolicy, secondFactor: boolean): number {
  return secondFactor ? Math.min(policy.minLengthWithSecondFactor, policy.minLength) : policy.minLength;
}

/** Long enough to stand alone: the policy's single-factor minimum, counted as checkPassword counts. */
export function meetsSingleFactorLength(password: string, policy: TPasswordPolicy): boolean {
  return codePoints(normalizeForPolicy(password)).length >= policy.minLength;
}

/**
 * The rules that need nothing but the password (and, for `not_enough_new_chars`, the current one in
 * plain text, which only a user-mode change has). Every violated rule is reported, so a form can
 * show them all at once; a length outside the bounds is reported alone, since the rest is moot.
 */
export function checkPassword(password: string, policy: TPasswordPolicy, holder: TPasswordHolder): TPolicyViolation[] {
  const normal = normalizeForPolicy(password);
  const chars = codePoints(normal);
  const low = minimumLength(policy, holder.secondFactor);
  if (chars.length < low) return [{ rule: "to_short", params: { low } }];
  if (chars.length > policy.maxLength) return [{ rule: "too_long", params: { high: policy.maxLength } }];
  const folded = normal.toLowerCase();
  const violations = [...checkGroups(chars, policy), ...checkStopWords(folded, policy.stopWords)];
  if (policy.dictionary && isCommonPassword(folded)) violations.push({ rule: "in_password_dic", params: {} });
  const current = holder.current;
  if (current !== undefined && policy.minNewChars > 0 && countNewChars(password, current) < policy.minNewChars) {
    violations.push({ rule: "not_enough_new_chars", params: { minNew: policy.minNewChars } });
  }
  return violations;
}

/** The password is still younger than the policy's minimum age. */
export function checkAge(lastChangedAt: Date | null, policy: TPasswordPolicy, now = new Date()): TPolicyViolation[] {
  if (policy.minAgeSec === 0 || lastChangedAt === null) return [];
  return now.getTime() - lastChangedAt.getTime() < policy.minAgeSec * 1000 ? [{ rule: "too_young", params: { minAgeInSec: policy.minAgeSec } }] : [];
}

type TTexts = Record<TLocale, (p: Record<string, unknown>) => string>;
const groupList = (p: Record<string, unknown>) =>
  (p.no_matched_groups as { desc: string; min_number_symbols: number }[]).map((g) => `${g.desc} (${g.min_number_symbols})`).join(", ");

const TEXTS: Record<TPolicyRule, TTexts> = {
  to_short: {
    ru: (p) => `Пароль должен содержать не менее ${p.low} символов`,
    en: (p) => `The password must be at least ${p.low} characters long`,
  },
  too_long: {
    ru: (p) => `Пароль должен содержать не более ${p.high} символов`,
    en: (p) => `The password must be at most ${p.high} characters long`,
  },
  not_enough_groups: {
    ru: (p) => `Пароль должен содержать символы из групп: ${groupList(p)}`,
    en: (p) => `The password needs characters of these groups: ${groupList(p)}`,
  },
  in_password_history: {
    ru: () => "Этот пароль уже использовался, придумайте новый",
    en: () => "This password was used before; choose a new one",
  },
  eq_current: {
    ru: () => "Новый пароль совпадает с текущим",
    en: () => "The new password is the same as the current one",
  },
  not_enough_new_chars: {
    ru: (p) => `Новый пароль должен содержать не менее ${p.minNew} символов, которых нет в текущем`,
    en: (p) => `The new password needs at least ${p.minNew} characters that the current one does not have`,
  },
  in_stop_dic: {
    ru: (p) => `Пароль не должен содержать слово «${p.stop_word}»`,
    en: (p) => `The password must not contain the word "${p.stop_word}"`,
  },
  in_password_dic: {
    ru: () => "Это один из самых распространённых паролей, его легко подобрать",
    en: () => "This is one of the most common passwords and easy to guess",
  },
  too_young: {
    ru: (p) => `Пароль можно менять не чаще чем раз в ${p.minAgeInSec} секунд`,
    en: (p) => `The password can be changed once every ${p.minAgeInSec} seconds at most`,
  },
  id_store: {
    ru: () => "Хранилище паролей отклонило изменение: пароль только что был изменён другим запросом, попробуйте ещё раз",
    en: () => "The password store refused the change: another request changed the password just now; try again",
  },
};

export function describeViolation(v: TPolicyViolation, locale: TLocale): string {
  return TEXTS[v.rule][locale](v.params as Record<string, unknown>);
}

/** A violation as the contract's input_error item (pos "password", `params.rule` plus the rule's params). */
export function violationItem(v: TPolicyViolation, locale: TLocale) {
  return { error: "password_policy_violated", desc: describeViolation(v, locale), pos: "password", params: { rule: v.rule, ...v.params } };
}
