import { expect } from "vitest";
import { RqlError } from "../../server/rql/rql-error.ts";

/** Runs what must fail with an RqlError and hands the error back for its position and reason. */
export function expectRqlError(run: () => unknown, what: string): RqlError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(RqlError);
    return e as RqlError;
  }
  throw new Error(`accepted: ${what}`);
}

/** Values an attacker would try in an RQL query: each must travel as a bound value and match only itself. */
export const HOSTILE = [
  "'; DROP TABLE rql_rows; --",
  "x')) OR 1=1 --",
  '" OR ""="',
  "\\'; SELECT pg_sleep(10); --",
  "$1",
  "?",
  "%' OR '1'='1",
  "Robert'); DROP TABLE Students;--",
  "$$; DROP TABLE rql_rows; $$",
  "E'\\x27'",
  "😀 Иван ĳ \u202E",
  "*' OR 1=1 --",
];

/** A value as an RQL argument: encodeURIComponent leaves ( ) ' * ! as they are, and ( ) are RQL's own. */
export function encodeRqlValue(value: string): string {
  return encodeURIComponent(value).replace(/[()'*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
