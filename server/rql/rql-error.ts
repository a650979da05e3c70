import { AppError } from "../errors/app-error.ts";

/**
 * A malformed or unusable RQL string. It is an AppError (`rql.malformed`, 400 input_error), so a
 * service that lets it through renders the contract's body without a mapping step of its own: one item
 * with `pos` naming the query parameter and `params.position`, the 0-based offset into the RQL text
 * as received (after the query string's own URL decoding).
 */
export class RqlError extends AppError {
  override name = "RqlError";

  constructor(
    readonly position: number,
    readonly reason: string,
    param = "rql",
  ) {
    const desc = `${reason} (at position ${position})`;
    super("rql.malformed", { items: [{ error: "wrong_value", desc, pos: param, params: { position } }] });
  }
}
