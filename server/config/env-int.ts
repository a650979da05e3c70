import { z } from "zod";

/**
 * A whole-number environment variable within [min, max], `fallback` when unset. The bounds travel as
 * metadata too: the configuration reference prints them from here.
 */
export const ZInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback)
    .meta({ range: [min, max] });
