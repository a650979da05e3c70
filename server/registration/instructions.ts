import type { TConfirmationRow } from "../contacts/confirmation-row.ts";
import type { TInstruction } from "./registration.schemas.ts";

/**
 * The instruction for one contact that still waits, from its confirmation's state:
 * enter-code (no wrong code yet) → try-again (after a wrong one) → no-attempts; expired once the
 * code's lifetime ended (then without `exp`).
 */
export type TInstructionSource = Pick<TConfirmationRow, "kind" | "value" | "status" | "attemptsLeft" | "expiresAt">;

export function instructionFor(row: TInstructionSource, maxAttempts: number, now = Date.now()): TInstruction {
  const prefix = row.kind === "email" ? "eml" : "mbl";
  const contact = row.kind === "email" ? { email: row.value } : { mobile: row.value };
  if (row.status === "no_attempts_left") return { name: `${prefix}-no-attempts`, ...contact, attemts: 0 };
  if (row.expiresAt.getTime() <= now) return { name: `${prefix}-expired`, ...contact, attemts: row.attemptsLeft };
  const state = row.attemptsLeft < maxAttempts ? "try-again" : "enter-code";
  return { name: `${prefix}-${state}`, ...contact, exp: Math.floor(row.expiresAt.getTime() / 1000), attemts: row.attemptsLeft };
}

/** E-mail first, then phone: a stable order clients can rely on. */
export function instructionsFor(rows: TInstructionSource[], maxAttempts: number, now = Date.now()): TInstruction[] {
  return [...rows].sort((a, b) => a.kind.localeCompare(b.kind)).map((r) => instructionFor(r, maxAttempts, now));
}
