import { AppError } from "../errors/app-error.ts";
import { Answer, queryParam } from "../http/exchange.ts";
import { pageRoute } from "../html/page-route.ts";
import { readBranding } from "./branding.service.ts";
import { LOGO_PATH } from "./branding.shared.ts";

// The URL a page links names the logo's bytes (v), so a browser may keep them for a year; a URL of a
// logo replaced since is answered with the current one, revalidated each time.
const IMMUTABLE = "public, max-age=31536000, immutable";

// GET {ctx}/branding/logo?v=… – the logo of the sign-in pages, served from the service's own origin
export const logoRoute = pageRoute("GET", LOGO_PATH, async (req) => {
  const { logo } = await readBranding();
  if (!logo) throw new AppError("route.not_found");
  const etag = `"${logo.version}"`;
  const headers = {
    etag,
    "cache-control": queryParam(req, "v") === logo.version ? IMMUTABLE : "no-cache",
    // The stored type was told from the bytes at upload; nosniff keeps the browser to it, and the
    // policy keeps an image opened on its own from running anything.
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
  };
  const known = (req.headers.get("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (known.includes(etag)) return new Answer(304, headers);
  return new Answer(200, { ...headers, "content-type": logo.type }, logo.bytes);
});
