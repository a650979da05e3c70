// Shared by next.config.mjs (Next's basePath is fixed at build time), the start script and
// server/config.ts, so the three can never disagree about what a valid context path is.

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Normalises IDP_CONTEXT_PATH: unset or empty means the default "/idp" (as for every variable),
 * "/" means the root; otherwise one or more "/segment" parts.
 * @param {string | undefined} raw
 * @returns {{ ok: true, value: string } | { ok: false, reason: string }}
 */
export function parseContextPath(raw) {
  if (raw === undefined || raw.trim() === "") return { ok: true, value: "/idp" };
  const trimmed = raw.trim().replace(/\/+$/, "");
  if (trimmed === "") return { ok: true, value: "" };
  if (!trimmed.startsWith("/")) return { ok: false, reason: `must start with "/" (got "${raw}")` };
  const segments = trimmed.slice(1).split("/");
  if (!segments.every((s) => SEGMENT.test(s))) {
    return { ok: false, reason: `segments may use only letters, digits and . _ ~ - (got "${raw}")` };
  }
  return { ok: true, value: trimmed };
}
