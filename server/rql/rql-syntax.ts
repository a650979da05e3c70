import { RqlError } from "./rql-error.ts";

/** Bounds on what one RQL string may ask; each is answered with a positioned error, never a deep stack. */
export const RQL_LIMITS = { maxLength: 4096, maxDepth: 16, maxTerms: 100, maxListValues: 100 } as const;

/** The syntax tree: calls `name(arg,…)`, lists `(v,…)` and raw text, not yet given any meaning. */
export type TRqlNode =
  | { kind: "call"; name: string; args: TRqlNode[]; pos: number }
  | { kind: "list"; items: TRqlNode[]; pos: number }
  | { kind: "text"; raw: string; pos: number };

const NAME_CHAR = /[A-Za-z0-9_]/;
// Characters that end a raw value: the grammar's own punctuation.
const STRUCTURAL = "(),&";

function show(c: string): string {
  return c === " " ? "a space" : JSON.stringify(c);
}

/**
 * A hand-written recursive-descent reader. Nesting is counted before each descent, so the JavaScript
 * stack depth is bounded by maxDepth whatever the input.
 */
class Reader {
  private i = 0;
  private terms = 0;

  constructor(private readonly s: string) {}

  readTop(): TRqlNode[] {
    if (this.s === "") return [];
    const out: TRqlNode[] = [];
    for (;;) {
      out.push(this.readCall(1));
      if (this.i === this.s.length) return out;
      const c = this.s[this.i]!;
      if (c !== "&" && c !== ",") throw this.unexpected(c === ")" ? 'unbalanced ")"' : `unexpected ${show(c)} after a term; join terms with "&" or ","`);
      this.i++;
      if (this.i === this.s.length) throw new RqlError(this.i, `expected a term after ${show(c)}`);
    }
  }

  private unexpected(reason: string): RqlError {
    return new RqlError(this.i, reason);
  }

  private readCall(depth: number): TRqlNode {
    const start = this.i;
    while (this.i < this.s.length && NAME_CHAR.test(this.s[this.i]!)) this.i++;
    const name = this.s.slice(start, this.i);
    const c = this.s[this.i];
    if (!name) {
      if (c === undefined) throw this.unexpected("expected an operator such as eq(field,value)");
      throw this.unexpected(c === ")" ? 'unbalanced ")"' : `expected an operator such as eq(field,value), found ${show(c)}`);
    }
    if (c !== "(") throw this.unexpected(c === undefined ? `expected "(" after "${name}"` : `expected "(" after "${name}", found ${show(c)}`);
    if (depth > RQL_LIMITS.maxDepth) throw new RqlError(start, `nested deeper than ${RQL_LIMITS.maxDepth} levels`);
    if (++this.terms > RQL_LIMITS.maxTerms) throw new RqlError(start, `more than ${RQL_LIMITS.maxTerms} terms`);
    this.i++;
    return { kind: "call", name, args: this.readArgs(depth, start + name.length), pos: start };
  }

  private readArgs(depth: number, open: number): TRqlNode[] {
    const args: TRqlNode[] = [];
    if (this.s[this.i] === ")") {
      this.i++;
      return args;
    }
    for (;;) {
      args.push(this.readArg(depth));
      const c = this.s[this.i];
      if (c === ",") this.i++;
      else if (c === ")") {
        this.i++;
        return args;
      } else if (c === undefined) throw this.unexpected(`missing ")" to close the "(" at position ${open}`);
      else if (c === "&") throw this.unexpected('"&" joins top-level terms only; inside parentheses use ","');
      else throw this.unexpected(`unexpected ${show(c)}`);
    }
  }

  private readArg(depth: number): TRqlNode {
    const start = this.i;
    if (this.s[this.i] === "(") return this.readList();
    const raw = this.readRaw();
    if (this.s[this.i] !== "(") return { kind: "text", raw, pos: start };
    if (!/^[A-Za-z0-9_]+$/.test(raw)) throw this.unexpected('"(" inside a value must be written %28');
    this.i = start;
    return this.readCall(depth + 1);
  }

  private readRaw(): string {
    const start = this.i;
    while (this.i < this.s.length && !STRUCTURAL.includes(this.s[this.i]!)) this.i++;
    return this.s.slice(start, this.i);
  }

  private readList(): TRqlNode {
    const open = this.i++;
    const items: TRqlNode[] = [];
    for (;;) {
      const pos = this.i;
      if (items.length === RQL_LIMITS.maxListValues) throw new RqlError(pos, `a list holds at most ${RQL_LIMITS.maxListValues} values`);
      items.push({ kind: "text", raw: this.readRaw(), pos });
      const c = this.s[this.i];
      if (c === ",") this.i++;
      else if (c === ")") {
        this.i++;
        return { kind: "list", items, pos: open };
      } else if (c === undefined) throw this.unexpected(`missing ")" to close the "(" at position ${open}`);
      else if (c === "(") throw this.unexpected('a list holds values only; "(" inside a value must be written %28');
      else throw this.unexpected('"&" joins top-level terms only; inside parentheses use ","');
    }
  }
}

/** Reads the syntax of an RQL string: top-level calls joined by `&` or `,`. */
export function readRqlSyntax(rql: string): TRqlNode[] {
  if (rql.length > RQL_LIMITS.maxLength) throw new RqlError(RQL_LIMITS.maxLength, `longer than ${RQL_LIMITS.maxLength} characters`);
  return new Reader(rql).readTop();
}
