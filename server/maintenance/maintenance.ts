import { deleteExpiredConfirmations } from "../contacts/contact-change.service.ts";
import { purgeUnboundInstances, UNBOUND_INSTANCE_TTL_MS } from "../dyn-clients/dyn-clients.service.ts";
import { getConfig } from "../config/config.ts";
import { describeError, log } from "../log/logger.ts";
import { deleteMessagesBefore } from "../messaging/outbox.service.ts";
import { deleteExpiredCodes } from "../oauth/grants/authorization-codes.service.ts";
import { deleteExpiredPending } from "../otp/otp.service.ts";
import { deleteExpiredChallenges } from "../passkeys/passkeys.service.ts";
import { deleteExpiredRefreshTokens } from "../oauth/grants/refresh-tokens.service.ts";
import { deleteExpiredRegistrations } from "../registration/registration.service.ts";
import { deleteExpiredSamlRequests } from "../saml/sps/service-providers.service.ts";
import { deleteExpiredSessions } from "../sessions/sessions.service.ts";
import { deleteExpiredFlows } from "../sign-in/login-flows.service.ts";
import { deleteExpiredSignUpFlows } from "../sign-in/signup.service.ts";
import { deleteIdleThrottles } from "../sign-in/throttle.service.ts";

const HOUR_MS = 60 * 60 * 1000;
// Expired confirmations are kept a day so that a late code still gets "code_expired", not "not found".
const KEEP_EXPIRED_MS = 24 * HOUR_MS;
// A used code is kept past its expiry for a while: a replay within that time still revokes what it issued.
const KEEP_CODES_MS = HOUR_MS;

/**
 * Removes what has run out: unfinished registrations and sign-ins, old confirmations, codes, refresh
 * tokens and sessions, idle throttle counters, app instances nobody bound, and outbox messages past
 * IDP_OUTBOX_RETENTION_DAYS (their text is sealed, but a code kept for ever is a liability and the
 * table would only grow). Safe on every instance.
 */
export async function runMaintenance(now = new Date()) {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return {
    registrations: await deleteExpiredRegistrations(now),
    confirmations: await deleteExpiredConfirmations(ago(KEEP_EXPIRED_MS)),
    loginFlows: await deleteExpiredFlows(now),
    signUpFlows: await deleteExpiredSignUpFlows(now),
    sessions: await deleteExpiredSessions(now),
    authorizationCodes: await deleteExpiredCodes(ago(KEEP_CODES_MS)),
    refreshTokens: await deleteExpiredRefreshTokens(now),
    throttles: await deleteIdleThrottles(ago(KEEP_EXPIRED_MS)),
    appInstances: await purgeUnboundInstances(ago(UNBOUND_INSTANCE_TTL_MS)),
    otpPendingSecrets: await deleteExpiredPending(now),
    webauthnChallenges: await deleteExpiredChallenges(now),
    samlRequests: await deleteExpiredSamlRequests(now),
    outboxMessages: await deleteMessagesBefore(ago(getConfig().outboxRetentionDays * 24 * HOUR_MS)),
  };
}

const KEY = Symbol.for("idp.maintenance");

/** Hourly, in the background; a failure is logged and retried at the next hour. */
export function startMaintenance(): void {
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  if (g[KEY]) return;
  const tick = () =>
    runMaintenance().then(
      (removed) => log.info("maintenance", removed),
      (e: unknown) => log.warn("maintenance failed", describeError(e)),
    );
  g[KEY] = setInterval(tick, HOUR_MS);
  g[KEY].unref();
}

/** At shutdown: no new run starts. */
export function stopMaintenance(): void {
  const g = globalThis as { [KEY]?: NodeJS.Timeout };
  clearInterval(g[KEY]);
  g[KEY] = undefined;
}
