import { RE2JS } from "re2js";

/*
 * Administrators write attribute patterns; every registration and change runs them on text the
 * caller chose. JavaScript's backtracking engine can take exponential time on a pattern such as
 * ^(a+)+$, stalling the event loop for every request. RE2 (here its JavaScript port) matches in
 * time linear in the input, and refuses what would need backtracking (backreferences, lookaround).
 */

// Patterns compiled once; a catalog has a few dozen at most, the bound only guards against churn.
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 1_000;

/**
 * JavaScript's \uXXXX and \u{X…} escapes in RE2's spelling (\x{…}), so patterns written for
 * RegExp (a Cyrillic range, say) keep working; an escaped backslash before a "u" is left alone.
 */
function toRe2(pattern: string): string {
  return pattern.replace(/(?<!\\)((?:\\\\)*)\\u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/g, (_, backslashes: string, braced?: string, four?: string) => `${backslashes}\\x{${braced ?? four}}`);
}

/** Why `pattern` cannot be an attribute pattern, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(toRe2(pattern));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Whether `value` contains a match of `pattern` (as RegExp.test does); undefined for a pattern RE2
 * refuses (one stored before patterns were checked for RE2). Each pattern is compiled once.
 */
export function matchesPattern(pattern: string, value: string): boolean | undefined {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(toRe2(pattern));
    } catch {
      re = null;
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(pattern, re);
  }
  return re ? re.test(value) : undefined;
}
