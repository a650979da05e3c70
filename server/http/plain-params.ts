import type { z } from "zod";
import { isCleanText } from "./parse.ts";

type TPlainCheck = (raw: Record<string, string>) => Record<string, string> | undefined;
type TDef = { type: string; shape?: Record<string, { _zod: { def: TDef } }>; catchall?: unknown; checks?: { _zod: { def: TCheckDef } }[] };
type TCheckDef = { check: string; minimum?: number; maximum?: number; length?: number };

/**
 * Path parameters are nearly always an object of bounded strings (`z.string().min(1).max(256)`).
 * For such a schema this returns a check that answers the validated object when every parameter is
 * a string within its bounds and free of bad text (parse.ts), in far less time than zod's general
 * parse takes inside the server, where its shared code sees every schema of the API. It never
 * refuses: for anything else it answers undefined and zod decides and words the 400, so the answers
 * stay zod's. undefined for a schema of any other kind (formats, transforms, optional fields…).
 */
export function plainParamsCheck(schema: z.ZodType): TPlainCheck | undefined {
  const def = (schema as unknown as { _zod: { def: TDef } })._zod.def;
  // Checks on the object itself (.refine(), .check()) are zod's to run.
  if (def.type !== "object" || def.catchall !== undefined || !def.shape || def.checks?.length) return undefined;
  const fields: { name: string; min: number; max: number }[] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const bounds = stringBounds(field._zod.def);
    if (!bounds) return undefined;
    fields.push({ name, ...bounds });
  }
  return (raw) => {
    const out: Record<string, string> = {};
    for (const { name, min, max } of fields) {
      const v = raw[name];
      if (typeof v !== "string" || v.length < min || v.length > max || !isCleanText(v)) return undefined;
      out[name] = v;
    }
    return out;
  };
}

/** The length bounds of a plain `z.string()` with only length checks; undefined for any other schema. */
function stringBounds(def: TDef): { min: number; max: number } | undefined {
  if (def.type !== "string" || Object.keys(def).some((k) => k !== "type" && k !== "checks")) return undefined;
  let min = 0;
  let max = Infinity;
  for (const { _zod } of def.checks ?? []) {
    const c = _zod.def;
    if (c.check === "min_length") min = Math.max(min, c.minimum!);
    else if (c.check === "max_length") max = Math.min(max, c.maximum!);
    else if (c.check === "length_equals") [min, max] = [Math.max(min, c.length!), Math.min(max, c.length!)];
    else return undefined;
  }
  return { min, max };
}
