import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { log } from "../log/logger.ts";
import { findPolicyDocument, savePolicyDocument } from "./passwords.repository.ts";
import { DEFAULT_POLICY, type TPasswordPolicy } from "./policy.ts";
import { ZPasswordPolicy } from "./policy.schemas.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";

// Read on every password check by every process: held in process, dropped through the change bus.
const POLICY_TOPIC = "password-policy";
const cache = keyedCache<TPasswordPolicy>(POLICY_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1 });

async function loadPolicy(): Promise<TPasswordPolicy> {
  const doc = await findPolicyDocument();
  if (doc === null) return DEFAULT_POLICY;
  const parsed = ZPasswordPolicy.safeParse(doc);
  // Only validated documents are written; one that no longer parses (a rule tightened by an upgrade)
  // must not leave accounts without a policy: the default applies and the log says why.
  if (!parsed.success) {
    log.warn("stored password policy is invalid; the default applies", { issues: parsed.error.issues.length });
    return DEFAULT_POLICY;
  }
  return parsed.data;
}

/** The policy in force (the default until an administrator saves one). */
export function getPasswordPolicy(): TMaybePromise<TPasswordPolicy> {
  return cache.read("", loadPolicy);
}

/** Validates `input` (absent fields take their defaults) and stores it, in `tx` when given. Call publishPolicyChange after the commit. */
export async function storePasswordPolicy(input: unknown, tx?: TTx): Promise<TPasswordPolicy> {
  const parsed = ZPasswordPolicy.safeParse(input);
  if (!parsed.success) {
    throw new AppError("request.invalid_values", {
      items: parsed.error.issues.map((i) => ({ error: "wrong_value", desc: i.message, pos: i.path.map(String).join(".") || "passwordPolicy" })),
    });
  }
  await savePolicyDocument(parsed.data as Record<string, unknown>, tx);
  return parsed.data;
}

/** After a policy change committed: every process reads it again. */
export function publishPolicyChange(): Promise<void> {
  return publishChange(POLICY_TOPIC);
}

/** The console's save: stores, tells every process, records who changed it. */
export async function changePasswordPolicy(input: unknown, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TPasswordPolicy> {
  const policy = await storePasswordPolicy(input);
  await publishPolicyChange();
  await recordEvent("password.policy_changed", actor, { policy, ...note });
  return policy;
}
