import { countEventsByBucket } from "./audit.repository.ts";

const SIGN_IN_TYPES = ["user.signed_in", "user.sign_in_failed"];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type TSignInBucket = { at: string; signedIn: number; failed: number };

/** One bucket per step from `start`, empty ones included: a chart shows a quiet hour as zero, not as a gap. */
function buckets(rows: { at: Date; type: string; count: number }[], start: number, n: number, step: number): TSignInBucket[] {
  const out = Array.from({ length: n }, (_, i) => ({ at: new Date(start + i * step).toISOString(), signedIn: 0, failed: 0 }));
  for (const r of rows) {
    const bucket = out[Math.round((new Date(r.at).getTime() - start) / step)];
    if (!bucket) continue;
    if (r.type === "user.signed_in") bucket.signedIn += r.count;
    else bucket.failed += r.count;
  }
  return out;
}

/** Sign-ins and failed sign-ins per hour over the last 24 hours and per day (UTC) over the last 7 days, the current ones included. */
export async function signInSeries(now: Date): Promise<{ hours: TSignInBucket[]; days: TSignInBucket[] }> {
  const hourStart = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
  const dayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS - 6 * DAY_MS;
  const [hours, days] = await Promise.all([
    countEventsByBucket(SIGN_IN_TYPES, new Date(hourStart), "hour"),
    countEventsByBucket(SIGN_IN_TYPES, new Date(dayStart), "day"),
  ]);
  return { hours: buckets(hours, hourStart, 24, HOUR_MS), days: buckets(days, dayStart, 7, DAY_MS) };
}
