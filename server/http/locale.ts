import type { THasHeaders } from "./exchange.ts";
/** Languages messages and error texts come in; Russian is the default, as the contract's users expect. */
export type TLocale = "ru" | "en";

/** The first supported language of Accept-Language (weights ignored: clients send one or two). */
export function localeOf(req: THasHeaders): TLocale {
  const header = req.headers.get("accept-language") ?? "";
  for (const part of header.split(",")) {
    const tag = part.split(";")[0]!.trim().toLowerCase();
    if (tag.startsWith("en")) return "en";
    if (tag.startsWith("ru")) return "ru";
  }
  return "ru";
}

/**
 * Fills "{name}" placeholders; an unknown one stays as is, so a missing param shows rather than
 * vanishes. The server's pages and the console's and portal's dictionaries use it alike.
 */
export function fillIn(text: string, params?: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => params?.[name] ?? m);
}
