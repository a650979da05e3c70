import type { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { TIncoming } from "./exchange.ts";
import { parseJsonBody, validate } from "./parse.ts";

// The v2 operations' one code for bad input, shared by the v2 rights and groups operations.

/**
 * The v2 error body names every bad input `validation_error`: a request.* error (malformed, too large,
 * invalid values) or an unknown user or right (also a group's unknown member, for the v2 groups) keeps
 * its status, its items are recast with the original code in params.reason and `prefix` before the position.
 */
export function asValidationError(e: unknown, prefix = ""): never {
  if (!(e instanceof AppError) || !(e.code.startsWith("request.") || e.code.startsWith("rights.unknown_") || e.code === "rights.kind_not_allowed" || e.code === "group.unknown_user")) throw e;
  const desc = e.details.desc ?? e.def.desc;
  const items = e.details.items ?? [{ error: e.def.error, desc, pos: "", params: e.details.params }];
  throw new AppError(e.code, {
    ...e.details,
    items: items.map((i) => ({ error: "validation_error", desc: i.desc, pos: [prefix, i.pos].filter(Boolean).join("."), params: { ...i.params, reason: i.error } })),
  });
}

/** The body, with every bad input answered as validation_error (the v2 body has no other code for it). */
export async function v2Body<S extends z.ZodType>(schema: S, req: TIncoming): Promise<z.infer<S>> {
  try {
    return validate(schema, await parseJsonBody(req));
  } catch (e) {
    return asValidationError(e);
  }
}
