/*
 * How long a message from a service provider is good for (SAML core §1.3.3, profiles §4.1.4.5):
 * its IssueInstant may be CLOCK_SKEW_MS ahead (clocks disagree) and MAX_AGE_MS (plus the skew) old
 * (a slow browser; a sign-in page left open is a new request). Its ID is remembered for as long as
 * it could still be accepted, which is what refuses a replay.
 */

export const CLOCK_SKEW_MS = 120_000;
const MAX_AGE_MS = 300_000;

// xs:dateTime with a zone (Z or an offset): Date.parse would read one without as local time.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant an xs:dateTime with a zone names; NaN for anything else. */
export const instantOf = (text: string | null): number => (text !== null && DATE_TIME.test(text) ? Date.parse(text) : NaN);

/** Whether a message issued at `issueInstant` may be accepted at `now`. */
export function issuedInWindow(issueInstant: string | null, now: number): boolean {
  const issued = instantOf(issueInstant);
  return Number.isFinite(issued) && issued <= now + CLOCK_SKEW_MS && issued >= now - MAX_AGE_MS - CLOCK_SKEW_MS;
}

/** Until when a message's ID is kept to refuse its replay: after that, its IssueInstant refuses it. */
export const replayGuardUntil = (now: number): Date => new Date(now + MAX_AGE_MS + 2 * CLOCK_SKEW_MS);
