import { base } from "./http.ts";

export type TPage = { status: number; url: string; headers: Headers; text: string; location?: string };

/**
 * A browser without JavaScript: a cookie jar for the service's origin and fetch with manual
 * redirects, so a test sees every hop and stops where the service sends the browser to a client.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  /** `origin`: the service it talks to, when not the suite's own server. */
  constructor(
    readonly headers: Record<string, string> = {},
    readonly origin?: string,
  ) {}

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split("=")[1]!).getTime() < Date.now());
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1).trim());
    }
  }

  async fetch(url: string, init: RequestInit = {}): Promise<TPage> {
    const headers = new Headers({ ...this.headers, ...(init.headers as Record<string, string>) });
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(res);
    const location = res.headers.get("location") ?? undefined;
    return { status: res.status, url, headers: res.headers, text: await res.text(), location: location && new URL(location, url).toString() };
  }

  /** Follows redirects while they stay on the service; returns the first page, or the redirect that leaves it. */
  async open(url: string, init: RequestInit = {}): Promise<TPage> {
    let page = await this.fetch(url, init);
    while (page.location && page.location.startsWith(this.origin ?? base())) page = await this.fetch(page.location);
    return page;
  }

  /** Submits the page's form (its hidden fields plus `fields`) and follows redirects on the service. */
  async submit(page: TPage, fields: Record<string, string>): Promise<TPage> {
    const form = formOf(page.text);
    const body = new URLSearchParams({ ...form.hidden, ...fields }).toString();
    return this.open(new URL(form.action, page.url).toString(), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  }
}

const unescape = (s: string) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");

/** The first POST form of a page: where it goes and its hidden fields. */
export function formOf(html: string): { action: string; hidden: Record<string, string> } {
  const form = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no form on the page:\n${html.slice(0, 500)}`);
  const hidden = Object.fromEntries([...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]));
  return { action: unescape(form[1]!), hidden };
}

/** The text of the page's alert, if it shows one. */
export function alertOf(html: string): string | undefined {
  const m = /role="alert"[^>]*>([^<]*)</.exec(html);
  return m ? unescape(m[1]!) : undefined;
}

/** A unique address per test, so that per-IP sign-in counters of different tests never meet. */
let nextIp = Math.floor(Math.random() * 200);
export const uniqueIp = () => `198.51.${100 + (nextIp++ % 100)}.${1 + Math.floor(Math.random() * 250)}`;
