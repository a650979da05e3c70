import { initTRPC, TRPCError } from "@trpc/server";
import type { Session } from "next-auth";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AUTH_APPS } from "../auth/apps.ts";
import { consoleUserOf, readConsoleSession } from "../auth/console-session.ts";
import { portalUserOf, readPortalSession } from "../auth/portal-session.ts";
import { requireRecentSignIn } from "../auth/recent-sign-in.ts";
import { isDatabaseUnreachable } from "../db/errors.ts";
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { passkeyEnrolmentRequired } from "../passkeys/passkey-policy.service.ts";
import { browserActor } from "../http/request-context.ts";
import { DEVICE_COOKIE } from "../sessions/sessions.service.ts";
import { requireManageable, type TConsoleGrant } from "../users/admin.service.ts";
import { describeTRPCError, toTRPCError } from "./errors.ts";

export type TTrpcContext = {
  /** The console's next-auth session. */
  session: Session | null;
  /** The portal's (a separate cookie); absent means none. */
  portalSession?: Session | null;
  ip?: string;
  userAgent?: string;
  /** The browser's device cookie (idp_device): the portal marks "this device" by it. */
  deviceKey?: string;
};

/**
 * Per request: who is signed in (next-auth cookies) and where the call comes from, for the audit
 * trail. Console and portal are browsers talking to the service itself, so the address is taken the
 * way the sign-in pages take it (IDP_TRUSTED_PROXIES), not from whatever X-Forwarded-For claims.
 */
export async function createTrpcContext(req: Request): Promise<TTrpcContext> {
  const [session, portalSession] = await Promise.all([readConsoleSession(), readPortalSession()]);
  return { session, portalSession, ...browserActor(req), deviceKey: readCookie(req, DEVICE_COOKIE) };
}

const t = initTRPC.context<TTrpcContext>().create({
  // Stacks and causes stay in the server log; the client gets the registry code and field items.
  isDev: false,
  errorFormatter({ shape, error }) {
    const { message, data } = describeTRPCError(error);
    return { ...shape, message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, ...data } };
  },
});

export const createRouter = t.router;

/** Services throw AppError; tRPC would report any non-TRPCError as a 500, an unreachable database too. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  if (!result.ok && isDatabaseUnreachable(result.error.cause)) throw toTRPCError(new AppError("db.unavailable"));
  return result;
});

/**
 * Input with U+0000 anywhere is refused before it reaches a service: PostgreSQL cannot store or
 * compare it, and a lookup by such an id would fail as a 500 instead of a clear 400.
 */
const refuseNul = t.middleware(async ({ getRawInput, next }) => {
  if (JSON.stringify((await getRawInput()) ?? null).includes("\\u0000")) {
    throw toTRPCError(new AppError("request.invalid_values", { items: [{ error: "invalid_characters", desc: "the input contains a NUL character", pos: "" }] }));
  }
  return next();
});

const base = t.procedure.use(mapAppErrors).use(refuseNul);

/**
 * Console procedures: someone signed in with a console role, re-checked against the database on
 * every call, whose role grants what the procedure needs (admin.service.ts says which role grants
 * what). Refusals are recorded. A procedure that names no grant is the administrator's.
 */
function consoleProcedure(grant: TConsoleGrant) {
  return base.use(async ({ ctx, path, next }) => {
    const admin = await consoleUserOf(ctx.session);
    if (!admin) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in as an administrator" });
    const actor: TEventActor = { subject: admin.id, ip: ctx.ip, userAgent: ctx.userAgent };
    if (!admin.grants.includes(grant)) {
      await recordEvent("console.access_denied", actor, { reason: "role", procedure: path, roles: admin.roles });
      throw toTRPCError(new AppError("console.forbidden"));
    }
    // The console layout sends such an administrator to the portal to enrol; this keeps the calls shut too.
    if (await passkeyEnrolmentRequired(admin.id)) throw toTRPCError(new AppError("console.passkey_required"));
    return next({ ctx: { admin, actor } });
  });
}

/** Reading: every console role. */
export const consoleReadProcedure = consoleProcedure("read");
/** Changing people's accounts: administrators, and user managers where the account holds no console role. */
export const userManagerProcedure = consoleProcedure("manage_users").use(async ({ ctx, getRawInput, next }) => {
  const input = await getRawInput();
  await requireManageable(ctx.admin, typeof input === "object" && input !== null ? input : {});
  return next();
});
/** Configuring the service, and everything not said otherwise: administrators. */
export const adminProcedure = consoleProcedure("configure");

/**
 * Portal procedures: a signed-in person whose account exists, is not locked and whose session was not
 * ended since (session reset, device removal), re-checked on every call. They act on `ctx.user.sub`
 * only: a portal procedure never takes a subject from its input.
 */
export const portalProcedure = base.use(async ({ ctx, next }) => {
  const user = await portalUserOf(ctx.portalSession ?? null);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in to your account" });
  const actor: TEventActor = { subject: user.sub, clientId: AUTH_APPS.portal.clientId, ip: ctx.ip, userAgent: ctx.userAgent };
  return next({ ctx: { user: { sub: user.sub }, actor } });
});

/**
 * Portal changes that could hand the account to whoever holds a stolen or unattended session:
 * password, second factor and generators, security question, e-mail or phone. They also need a
 * recent sign-in (IDP_REAUTH_MAX_AGE); otherwise portal.reauth_required (403), and the portal asks
 * the person to sign in again. Signing a device out and revoking a consent only take access away,
 * so they stay plain portal procedures.
 */
export const sensitivePortalProcedure = portalProcedure.use(({ ctx, next }) => {
  requireRecentSignIn(ctx.portalSession);
  return next();
});
