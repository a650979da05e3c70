import { recordEvent, type TEventActor } from "../../audit/audit.service.ts";
import { keyedCache } from "../../cache/keyed-cache.ts";
import { publishChange } from "../../cache/change-bus.ts";
import { getConfig } from "../../config/config.ts";
import { opensWithCurrentKey, sealFor, unsealFor } from "../../crypto/keys.ts";
import { AppError } from "../../errors/app-error.ts";
import { keySchedule, keyState, LONGEST_SIGNED_TOKEN_S, type TKeyState } from "../../oauth/keys/key-schedule.ts";
import { findLiveSamlKeys, insertFirstSamlKey, insertSuccessorSamlKey, listSamlKeys, type TSamlKeyRow } from "./saml-keys.repository.ts";
import { newSamlKeyMaterial } from "./certificate.ts";
import type { TSigningMaterial } from "../xml/dsig.ts";

/*
 * The SAML signing keys follow the token keys' schedule (key-schedule.ts: published ahead, signing,
 * retired, withdrawn), in a table of their own and rotated on their own: a service provider often
 * takes a new certificate only when someone pastes it in, so rotating the SAML key is a decision of
 * its own, announced further ahead (IDP_SAML_KEY_PUBLISH_AHEAD).
 */

const TOPIC = "saml-keys";
// One entry: the live rows. Reads are rare (a SAML sign-in, a metadata fetch); the bus drops it on rotation.
const cache = keyedCache<TSamlKeyRow[]>(TOPIC, { ttlMs: 5 * 60_000, maxEntries: 1 });
// A retired key stays in the metadata as long as a token key stays in the JWKS: long enough for any
// response it signed, which live minutes, and for a service provider's copy of the metadata.
const PUBLISHED_FOR_S = LONGEST_SIGNED_TOKEN_S;

const FIRST_KEY = Symbol.for("idp.saml-keys.first");
const holder = globalThis as { [FIRST_KEY]?: Promise<TSamlKeyRow[]> };

/**
 * The live rows. The first use of SAML makes the first key (an RSA key takes about a second to make,
 * which a server that never speaks SAML should not spend at every start); requests meanwhile wait
 * for that one key rather than each making their own.
 */
async function liveRows(): Promise<TSamlKeyRow[]> {
  const rows = await cache.read("live", () => findLiveSamlKeys(new Date(Date.now() - PUBLISHED_FOR_S * 1000)));
  if (rows.some((k) => !k.retiredAt && !k.withdrawnAt)) return rows;
  // Kept once made: until the change reaches this process's cache, the cache still says "no key".
  holder[FIRST_KEY] ??= makeFirstKey().catch((e: unknown) => {
    holder[FIRST_KEY] = undefined;
    throw e;
  });
  return holder[FIRST_KEY];
}

async function makeFirstKey(): Promise<TSamlKeyRow[]> {
  await insertFirstSamlKey(await newRow());
  await publishChange(TOPIC);
  // Past the cache: the change may reach this process's copy only after this read.
  return findLiveSamlKeys(new Date(Date.now() - PUBLISHED_FOR_S * 1000));
}

const newRow = async () => {
  const { kid, certificatePem, privateKeyPem } = await newSamlKeyMaterial(new URL(getConfig().publicUrl).hostname);
  return { kid, certificatePem, privateKeyEnc: sealFor("signing-keys", privateKeyPem) };
};

/** The key that signs now, opened, with its certificate (which goes into each signature's KeyInfo). */
export async function getSamlSigningKey(): Promise<TSigningMaterial & { kid: string }> {
  const { signing } = keySchedule(await liveRows(), Date.now());
  try {
    return { kid: signing.kid, certificatePem: signing.certificatePem, privateKeyPem: unsealFor("signing-keys", signing.privateKeyEnc) };
  } catch {
    throw new Error(`the SAML signing key ${signing.kid} cannot be opened with this server's secret keys (see docs/key-rotation.md)`);
  }
}

/** The certificates service providers should trust now: signing, waiting to sign, and recently retired. */
export async function publishedSamlCertificates(): Promise<{ kid: string; certificatePem: string }[]> {
  return keySchedule(await liveRows(), Date.now()).published.map(({ kid, certificatePem }) => ({ kid, certificatePem }));
}

/**
 * Puts a new SAML key in: published at once, signing `publishAheadS` later (IDP_SAML_KEY_PUBLISH_AHEAD);
 * `compromised`: it signs at once and every other key leaves the metadata at once.
 */
export async function rotateSamlSigningKey(opts: { publishAheadS?: number; compromised?: boolean }, actor: TEventActor & { by: string }) {
  const live = await findLiveSamlKeys(new Date(Date.now() - PUBLISHED_FOR_S * 1000));
  // As for the token keys: a key sealed under a secret key the other servers lack could never sign.
  if (live.length && !opensWithCurrentKey("signing-keys", keySchedule(live, Date.now()).signing.privateKeyEnc)) throw new AppError("keys.secret_key_mismatch");
  const aheadMs = live.length ? (opts.publishAheadS ?? getConfig().samlKeyPublishAhead) * 1000 : 0;
  const row = await newRow();
  const { signsFrom, retired } = await insertSuccessorSamlKey(row, { aheadMs, compromised: opts.compromised === true, publishedForS: PUBLISHED_FOR_S });
  await publishChange(TOPIC);
  const { by, ...who } = actor;
  await recordEvent("keys.saml_key_rotated", who, { kid: row.kid, signsFrom: signsFrom.toISOString(), retired, compromised: opts.compromised === true, by });
  return { kid: row.kid, signsFrom, retired };
}

export type TSamlKeyView = { kid: string; certificatePem: string; signsFrom: Date; retiredAt: Date | null; createdAt: Date; state: TKeyState };

/** Every SAML key with what it does now, for the console (certificates only). */
export async function describeSamlKeys(): Promise<{ keys: TSamlKeyView[]; publishAheadS: number }> {
  const rows = await listSamlKeys();
  const now = Date.now();
  const schedule = keySchedule(rows, now);
  return { keys: rows.map(({ withdrawnAt: _, ...k }, i) => ({ ...k, state: keyState(rows[i]!, schedule, now) })), publishAheadS: getConfig().samlKeyPublishAhead };
}
