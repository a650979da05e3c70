import type { TMaybePromise } from "../cache/maybe-promise.ts";

/** An accent in one colour scheme: the fill of primary buttons, the text on it, and its shade for links and outlines on the page. */
export type TAccentShades = { fill: string; text: string; ink: string };

/**
 * The look an administrator gave the pages, in its final form: the kit renders it and decides
 * nothing about it. Null fields keep the kit's built-in look.
 */
export type TPageBrand = {
  productName: string | null;
  /** Below the context path of this service: the kit's CSP allows images from 'self' only. */
  logoUrl: string | null;
  accent: { light: TAccentShades; dark: TAccentShades } | null;
  termsUrl: string | null;
  privacyUrl: string | null;
};

/** Who keeps the brand (server/branding/): what it holds now, and a way to wait until that is fresh. */
export type TPageBrandSource = { current(): TPageBrand; ready(): TMaybePromise<unknown> };

export const BUILT_IN_BRAND: TPageBrand = Object.freeze({ productName: null, logoUrl: null, accent: null, termsUrl: null, privacyUrl: null });

// The page kit stands below the capabilities and cannot import the one that stores the brand, so that
// one hands its reader in here at boot. On globalThis: Next bundles the page routes and the boot apart.
const KEY = Symbol.for("idp.page-brand");
const slot = () => globalThis as { [KEY]?: TPageBrandSource };

export function providePageBrand(source: TPageBrandSource): void {
  slot()[KEY] = source;
}

/** The brand in force, without waiting: the built-in look while none was provided (unit tests, a failed boot). */
export function currentPageBrand(): TPageBrand {
  return slot()[KEY]?.current() ?? BUILT_IN_BRAND;
}

/** Resolves once the brand held is the stored one (a value when it is already, as on nearly every request). */
export function pageBrandReady(): TMaybePromise<unknown> {
  return slot()[KEY]?.ready();
}
