/**
 * The parsed form of an RQL string: pure data, so it can be logged, tested and compiled without a
 * database. Every node keeps `pos`, the 0-based offset of its text in the RQL string, so the compiler
 * can point at an unknown field or a value of the wrong type the same way the parser points at syntax.
 */

export type TRqlValueType = "string" | "number" | "boolean" | "date" | "null";

export type TRqlValue = {
  /** What the value is: from its `type:` prefix, else guessed (number, true/false, null, else string). */
  type: TRqlValueType;
  value: string | number | boolean | null;
  /** The decoded text after any prefix: the compiler reads an untyped value by the field's type from it ("01234" stays "01234" for a string field). */
  text: string;
  /** True when written with a `string:`, `number:`, `boolean:` or `date:` prefix. */
  typed: boolean;
  pos: number;
};

export type TRqlField = { name: string; pos: number };

export type TRqlCompareOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge";

export type TRqlFilter =
  | { op: "and" | "or"; args: TRqlFilter[]; pos: number }
  | { op: TRqlCompareOp; field: TRqlField; value: TRqlValue; pos: number }
  | { op: "like"; field: TRqlField; pattern: TRqlValue; pos: number }
  | { op: "in"; field: TRqlField; values: TRqlValue[]; pos: number };

export type TRqlSort = { field: TRqlField; dir: "asc" | "desc" };

export type TRqlQuery = {
  /** The top-level terms joined by AND; absent for an empty RQL string. */
  filter?: TRqlFilter;
  sort: TRqlSort[];
  limit?: { count: number; offset: number; pos: number };
};
