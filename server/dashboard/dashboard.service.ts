import { signInSeries } from "../audit/sign-in-series.ts";
import { countFailedMessages, countPendingMessages } from "../messaging/outbox.service.ts";
import { describeSigningKeys } from "../oauth/keys/signing-keys.service.ts";
import { countLiveSessions } from "../sessions/sessions.service.ts";
import { countAccounts } from "../users/users-console.service.ts";

const WEEK_MS = 7 * 86_400_000;

/**
 * The console's home: how many accounts, how sign-ins went, what is live and what is stuck. Each
 * figure is its capability's own count, read side by side; every one is served by an index but the
 * account totals, one pass over the accounts table (bench/dashboard.mjs times it at 100,000).
 */
export async function consoleDashboard(now = new Date()) {
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const [accounts, signIns, sessions, pending, failed, keys] = await Promise.all([
    countAccounts(weekAgo),
    signInSeries(now),
    countLiveSessions(now),
    countPendingMessages(),
    countFailedMessages(weekAgo),
    describeSigningKeys(),
  ]);
  const signing = keys.keys.find((k) => k.state === "signing");
  return {
    at: now.toISOString(),
    accounts,
    signIns,
    sessions,
    outbox: { pending: pending.reduce((n, r) => n + r.count, 0), failedThisWeek: failed },
    signingKey: signing ? { kid: signing.kid, ageDays: Math.floor((now.getTime() - signing.signsFrom.getTime()) / 86_400_000) } : null,
  };
}
