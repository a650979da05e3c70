import { ERROR_CODES, type TErrorCode, type TErrorDef } from "./codes.ts";

/** One field-level problem, as the contract's input_error items carry it. */
export type TInputItem = { error: string; desc: string; pos: string; params?: Record<string, unknown> };

export type TAppErrorDetails = {
  /** Replaces the registry's default desc. */
  desc?: string;
  params?: Record<string, unknown>;
  items?: TInputItem[];
  /** v3 input_error: render the one item itself, not nested in `errors[]` (the contract's id_store body). */
  flat?: boolean;
  headers?: Record<string, string>;
};

/** The only error services throw on purpose. Anything else reaching a renderer is a 500. */
export class AppError extends Error {
  override name = "AppError";
  readonly def: TErrorDef;

  constructor(
    readonly code: TErrorCode,
    readonly details: TAppErrorDetails = {},
  ) {
    super(details.desc ?? ERROR_CODES[code].desc);
    this.def = ERROR_CODES[code];
  }

  get status(): number {
    return this.def.status;
  }
}
