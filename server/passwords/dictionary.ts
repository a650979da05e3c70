import { COMMON_PASSWORDS } from "./common-passwords.ts";

let common: Set<string> | undefined;

/** True when `folded` (NFC, lower case) is one of the shipped common passwords. The set is built once. */
export function isCommonPassword(folded: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split("\n"));
  return common.has(folded);
}
