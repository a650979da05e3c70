import type { TAccentShades } from "../html/page-brand.ts";

// What the console and the server share about branding: the limits, and how an accent colour
// becomes the shades the pages use (the console's preview draws with the same ones).

/**
 * A logo larger than this is refused: it is sent with every sign-in page's first visit, and its
 * base64 (4/3 of it) must fit a console call's 64 KB body limit.
 */
export const LOGO_MAX_BYTES = 40 * 1024;
/** Raster images only, told by their first bytes: an SVG can carry script. */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type TLogoType = (typeof LOGO_TYPES)[number];
export const PRODUCT_NAME_MAX = 60;
export const ACCENT_PATTERN = /^#[0-9a-f]{6}$/i;

/** The pages' own backgrounds (server/html/layout.ts), which the accent as text must stand out on. */
const BACKGROUNDS = { light: ["#ffffff", "#f4f5f7"], dark: ["#161b22", "#0d1117"] };
const LIGHT_TEXT = "#ffffff";
const DARK_TEXT = "#0d1117";
/** WCAG 2.x AA for normal text. */
const AA = 4.5;

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb: number[]) => "#" + rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");

/** WCAG 2.x relative luminance of "#rrggbb". */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2.x contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The text on an accent fill: white or near-black, whichever stands out more. */
export function textOnAccent(fill: string): string {
  return contrastRatio(fill, LIGHT_TEXT) >= contrastRatio(fill, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}

/** The accent moved toward black (light pages) or white (dark pages) just far enough to be read as text on every background. */
function inkOn(accent: string, backgrounds: string[], toward: string): string {
  const from = channels(accent);
  const to = channels(toward);
  for (let step = 0; step <= 20; step++) {
    const ink = toHex(from.map((c, i) => c + ((to[i]! - c) * step) / 20));
    if (backgrounds.every((bg) => contrastRatio(ink, bg) >= AA)) return ink;
  }
  return toward;
}

/**
 * The shades of an accent "#rrggbb" in light and dark pages: its fill (as chosen, unless no text
 * colour is legible on it: a mid grey is moved away from its text just far enough), the text on it,
 * and a legible shade for links and outlines.
 */
export function accentShades(accent: string): { light: TAccentShades; dark: TAccentShades } {
  const chosen = accent.toLowerCase();
  const text = textOnAccent(chosen);
  const fill = inkOn(chosen, [text], text === LIGHT_TEXT ? "#000000" : "#ffffff");
  return {
    light: { fill, text, ink: inkOn(fill, BACKGROUNDS.light, "#000000") },
    dark: { fill, text, ink: inkOn(fill, BACKGROUNDS.dark, "#ffffff") },
  };
}

/** Where the logo is served, below the context path; its query `v` names the bytes. */
export const LOGO_PATH = "/branding/logo";
