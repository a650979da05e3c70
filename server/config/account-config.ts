import { z } from "zod";
import { ZInt } from "./env-int.ts";

/** The environment variables of user properties and of the inactivity lock (docs/reference/configuration.md). */
export const ZAccountEnv = z.object({
  IDP_PROPS_MAX_COUNT: ZInt(1, 10_000, 100),
  IDP_PROPS_MAX_NAME: ZInt(1, 1024, 128),
  IDP_PROPS_MAX_VALUE: ZInt(1, 65_536, 1024),
  IDP_INACTIVITY_LOCK_DAYS: ZInt(0, 36_500, 0),
  IDP_INACTIVITY_SWEEP_INTERVAL: ZInt(60, 86_400, 3600),
});
type TAccountEnv = z.infer<typeof ZAccountEnv>;

export type TAccountConfig = {
  /** User properties: how many an account may have, the longest name and string value (characters). */
  props: { maxCount: number; maxName: number; maxValue: number };
  /** Inactivity lock: the period without a sign-in in seconds (0: off), and how often the sweep runs (seconds). */
  inactivity: { lockAfterS: number; sweepIntervalS: number };
};

export function toAccountConfig(e: TAccountEnv): TAccountConfig {
  return {
    props: { maxCount: e.IDP_PROPS_MAX_COUNT, maxName: e.IDP_PROPS_MAX_NAME, maxValue: e.IDP_PROPS_MAX_VALUE },
    inactivity: { lockAfterS: e.IDP_INACTIVITY_LOCK_DAYS * 86_400, sweepIntervalS: e.IDP_INACTIVITY_SWEEP_INTERVAL },
  };
}
