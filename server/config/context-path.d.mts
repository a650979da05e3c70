export function parseContextPath(
  raw: string | undefined,
): { ok: true; value: string } | { ok: false; reason: string };
