import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { getConfig } from "../config/config.ts";
import { BUILT_IN_BRAND, providePageBrand, type TPageBrand } from "../html/page-brand.ts";
import { describeError, log } from "../log/logger.ts";
import { deleteBranding, findBranding, patchBranding, type TBrandingRow } from "./branding.repository.ts";
import type { TBrandingSettings, TLogo } from "./branding.schemas.ts";
import { accentShades, LOGO_PATH } from "./branding.shared.ts";
import { logoVersion } from "./logo.ts";

/** The logo as the console shows it: where it is served, and what it is. */
export type TLogoInfo = { type: string; version: string; size: number; url: string };
/** The branding as the console reads it. */
export type TBranding = TBrandingSettings & { logo: TLogoInfo | null };
/** What every process holds: the console's view, the logo's bytes to serve, and the pages' brand. */
export type TBrandingState = { branding: TBranding; logo: { bytes: Uint8Array; type: string; version: string } | null; page: TPageBrand };

// Read by every page of every process: held in process, dropped through the change bus. A change
// behind the service's back is seen within the backstop TTL.
const BRANDING_TOPIC = "branding";
const cache = keyedCache<TBrandingState>(BRANDING_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 1 });

// The state last read, for the page kit's synchronous reader: a page drawn while the cache reloads
// keeps the look it had a moment before rather than the built-in one. On globalThis, as the cache.
const HELD = Symbol.for("idp.branding-held");
const held = () => globalThis as { [HELD]?: TBrandingState };

function stateOf(row: TBrandingRow | null): TBrandingState {
  const logo = row?.logo && row.logoType && row.logoVersion ? { bytes: row.logo, type: row.logoType, version: row.logoVersion } : null;
  const settings = { productName: row?.productName ?? null, accentColour: row?.accentColour ?? null, termsUrl: row?.termsUrl ?? null, privacyUrl: row?.privacyUrl ?? null };
  const logoUrl = logo ? `${getConfig().contextPath}${LOGO_PATH}?v=${logo.version}` : null;
  return {
    branding: { ...settings, logo: logo && { type: logo.type, version: logo.version, size: logo.bytes.byteLength, url: logoUrl! } },
    logo,
    page: { ...settings, logoUrl, accent: settings.accentColour ? accentShades(settings.accentColour) : null },
  };
}

/** The branding in force, from memory when it is there. */
export function readBranding(): TMaybePromise<TBrandingState> {
  return andThen(
    cache.read("", async () => stateOf(await findBranding())),
    (state) => (held()[HELD] = state),
  );
}

/** The console's view of the branding. */
export async function getBranding(): Promise<TBranding> {
  return (await readBranding()).branding;
}

/**
 * Hands the page kit its reader and reads the branding once, before the first page: called at boot.
 * A failed read leaves the pages in the built-in look until the next page reads it again.
 */
export async function startBranding(): Promise<void> {
  providePageBrand({ current: () => held()[HELD]?.page ?? BUILT_IN_BRAND, ready: brandingReady });
  await brandingReady();
}

function brandingReady(): TMaybePromise<unknown> {
  try {
    const state = readBranding();
    return state instanceof Promise ? state.catch(logReadFailure) : state;
  } catch (e) {
    return logReadFailure(e);
  }
}

function logReadFailure(e: unknown): undefined {
  log.warn("branding could not be read; pages keep the look they had", describeError(e));
  return undefined;
}

/** After a branding change committed: every process reads it again. */
export function publishBrandingChange(): Promise<void> {
  return publishChange(BRANDING_TOPIC);
}

async function changed(actor: TEventActor, params: Record<string, unknown>): Promise<TBranding> {
  await publishBrandingChange();
  await recordEvent("branding.changed", actor, params);
  return getBranding();
}

/** The console's save of the name, colour and links (the logo is kept). */
export async function saveBrandingSettings(settings: TBrandingSettings, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TBranding> {
  await patchBranding(settings);
  return changed(actor, { change: "settings", ...settings, ...note });
}

/** Stores a checked logo (ZLogoUpload) in place of the one before. */
export async function saveLogo(logo: TLogo, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TBranding> {
  const version = logoVersion(logo.bytes);
  await patchBranding({ logo: logo.bytes, logoType: logo.type, logoVersion: version });
  return changed(actor, { change: "logo", logoType: logo.type, logoSize: logo.bytes.byteLength, logoVersion: version, ...note });
}

export async function removeLogo(actor: TEventActor, note: Record<string, unknown> = {}): Promise<TBranding> {
  await patchBranding({ logo: null, logoType: null, logoVersion: null });
  return changed(actor, { change: "logo_removed", ...note });
}

/** Back to the built-in look: name, colour, links and logo. */
export async function resetBranding(actor: TEventActor, note: Record<string, unknown> = {}): Promise<TBranding> {
  await deleteBranding();
  return changed(actor, { change: "reset", ...note });
}
