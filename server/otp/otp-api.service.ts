import QRCode from "qrcode";
import { TOTP } from "otpauth";
import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { CURRENT_SUBJECT } from "../http/current-subject.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountIdOfSubject, accountOfSubject } from "../users/subject-param.ts";
import { readAccount } from "../users/users.service.ts";
import { decodeBase32, encodeBase32 } from "./otp-codes.ts";
import type { THotpAttach, TQrAttach, TTotpAttach } from "./otp.schemas.ts";
import {
  bindGenerator, bindPendingSecret, DEFAULT_HOTP_NAME, DEFAULT_HOTP_PREFIX, DEFAULT_TOTP_NAME, DEFAULT_TOTP_PREFIX, generatorsOf,
  issuePendingSecret, PREFIX, proveTotpCode, QR_PARAMS, removeGenerator, type TOtpBinding,
} from "./otp.service.ts";

/** The REST adapters of the OTP endpoints: they find the account and say who acts; otp.service.ts decides. */

const FULL_ACCESS = "idp_api_otp_full_access";

/** GET /api/v3/users/{subjectId}/totps: the account's generators; 404 when it has none. */
export async function listBindings(ctx: TRequestContext, subjectId: string): Promise<TOtpBinding[]> {
  const all = await generatorsOf(await accountIdOfSubject(ctx, subjectId));
  if (!all.length) throw new AppError("otp.none_bound");
  return all.map(({ id, len, name }) => ({ id, len, name }));
}

/** The otpauth:// URI an authenticator app scans for a QR-flow secret (issuer IDP_OTP_ISSUER, else the public host). */
export function otpauthUri(seed: Uint8Array, label: string): string {
  const config = getConfig();
  const issuer = config.otpIssuer ?? new URL(config.issuer).host;
  const totp = new TOTP({ issuer, label, secret: encodeBase32(seed), algorithm: QR_PARAMS.algo, digits: QR_PARAMS.digits, period: QR_PARAMS.period });
  return totp.toString();
}

/** GET …/totps/attach/qr: a new secret for this account, as a QR code and as text. */
export async function startQrBinding(ctx: TRequestContext, subjectId: string): Promise<{ base64QRCode: string; base32Secret: string }> {
  const account = await accountOfSubject(ctx, subjectId);
  const seed = await issuePendingSecret(account.id);
  const png = await QRCode.toBuffer(otpauthUri(seed, account.id), { type: "png", errorCorrectionLevel: "M", margin: 2, scale: 6 });
  return { base64QRCode: png.toString("base64"), base32Secret: encodeBase32(seed) };
}

/** The prefix a stage-2 id `<prefix>_<subject>` names for this account; 400 when it is not of that form. */
function prefixOf(id: string, userId: string): string {
  const suffix = `_${userId}`;
  const prefix = id.endsWith(suffix) ? id.slice(0, -suffix.length) : "";
  if (!PREFIX.test(prefix)) {
    throw new AppError("request.invalid_values", {
      items: [{ error: "wrong_value", desc: `the binding id must be <prefix>_${userId}, the prefix letters, digits, dots and dashes`, pos: "id" }],
    });
  }
  return prefix;
}

/** POST …/totps/attach/qr and POST …/totps/{id}: binds a secret handed out by the QR flow, proved by its current code. */
export async function finishQrBinding(ctx: TRequestContext, subjectId: string, body: TQrAttach, id?: string): Promise<void> {
  await requireRecentAuth(ctx);
  const account = await accountOfSubject(ctx, subjectId);
  const prefix = id === undefined ? DEFAULT_TOTP_PREFIX : prefixOf(id, account.id);
  const seed = decodeBase32(body.base32Secret);
  if (!seed) throw new AppError("otp.unknown_secret");
  await bindPendingSecret(account.id, seed, body.otpCode, { prefix, name: body.name ?? DEFAULT_TOTP_NAME }, eventActorOf(ctx));
}

/** The account of POST /api/v3/users/{totps,hotps}/attach: the token's user, or `subjectId` in system mode. */
async function attachTarget(ctx: TRequestContext, subjectId: string | undefined): Promise<string> {
  if (ctx.actor.mode === "user") {
    if (subjectId !== undefined && subjectId !== ctx.actor.userId && subjectId !== CURRENT_SUBJECT) throw new AppError("auth.wrong_subject");
    return ctx.actor.userId;
  }
  if (subjectId === undefined) {
    throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "a system token names the account in subjectId", pos: "subjectId" }] });
  }
  return (await readAccount(subjectId)).id;
}

function requireFullAccess(ctx: TRequestContext, what: string): void {
  const scopes = ctx.actor.mode === "user" || ctx.actor.mode === "system" ? ctx.actor.scopes : [];
  if (!scopes.includes(FULL_ACCESS)) {
    throw new AppError("auth.scope_missing", { desc: `missing scopes: ${FULL_ACCESS} (${what})`, params: { scopes: [FULL_ACCESS] } });
  }
}

/** POST /api/v3/users/totps/attach: with otpCode the code proves the generator; without it only idp_api_otp_full_access may bind. */
export async function attachTotp(ctx: TRequestContext, body: TTotpAttach): Promise<void> {
  if (body.otpCode === undefined) requireFullAccess(ctx, "binding without otpCode");
  await requireRecentAuth(ctx);
  const userId = await attachTarget(ctx, body.subjectId);
  const seed = decodeBase32(body.base32Secret)!;
  const key = { seed, algo: body.algo, digits: body.len };
  const lastStep = body.otpCode === undefined ? undefined : proveTotpCode(key, body.period, body.otpCode);
  await bindGenerator(
    userId,
    { kind: "totp", prefix: DEFAULT_TOTP_PREFIX, name: body.name ?? DEFAULT_TOTP_NAME, ...key, period: body.period, lastStep },
    eventActorOf(ctx),
    { via: body.otpCode === undefined ? "full_access" : "code" },
  );
}

/** POST /api/v3/users/hotps/attach (idp_api_otp_full_access). */
export async function attachHotp(ctx: TRequestContext, body: THotpAttach): Promise<void> {
  await requireRecentAuth(ctx);
  const userId = await attachTarget(ctx, body.subjectId);
  const seed = decodeBase32(body.base32Secret)!;
  await bindGenerator(
    userId,
    { kind: "hotp", prefix: DEFAULT_HOTP_PREFIX, name: body.name ?? DEFAULT_HOTP_NAME, seed, algo: body.algo, digits: body.len, counter: body.counter },
    eventActorOf(ctx),
  );
}

/** DELETE …/totps/{id}. */
export async function deleteBinding(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  await requireRecentAuth(ctx);
  const account = await accountOfSubject(ctx, subjectId);
  await removeGenerator(account.id, id, eventActorOf(ctx));
}
