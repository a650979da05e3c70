import { html, type THtml } from "../../html/html.ts";
import type { TLang } from "../../html/texts.ts";
import { waitText, type TText } from "./i18n.ts";
import { renderPage, sourceHash } from "../../html/layout.ts";
import { qrStartForm } from "./views.ts";

/**
 * With JavaScript the waiting page asks every 2 s whether anything happened and reloads only then,
 * so a screen reader is not sent back to the top every few seconds. It sits in <head>, so it looks
 * for the status URL in the page only when it first asks; keeping the URL out of the script keeps
 * the script (and so its CSP hash) constant.
 */
const POLL_SCRIPT = `(() => {
  const poll = async () => {
    try {
      const res = await fetch(document.getElementById("qr-wait").dataset.status, { cache: "no-store", credentials: "same-origin" });
      if (!res.ok || (await res.json()).state !== "waiting") return location.replace(location.href);
    } catch {}
    setTimeout(poll, 2000);
  };
  setTimeout(poll, 2000);
})();`;

/** The CSP source that lets the waiting page's script run. */
export const POLL_SCRIPT_HASH = sourceHash(POLL_SCRIPT);

// Without JavaScript the page reloads itself every 2 s instead (<noscript> in <head> may hold <meta>).
const WAITING_HEAD = html`<noscript><meta http-equiv="refresh" content="2"></noscript>
<script>${{ markup: POLL_SCRIPT }}</script>`;

export type TQrPageState = { state: "waiting"; code: string; secondsLeft: number } | { state: "refused" | "expired" | "locked" | "inactive" };

type TQrView = {
  lang: TLang;
  t: TText;
  switchUrl: string;
  clientName: string;
  /** POST: a new code. */
  startAction: string;
  csrf: string;
  passwordUrl: string;
  statusUrl: string;
  view: TQrPageState;
  /** While waiting: the code drawn by qrSvg(). */
  svg?: string;
};

function waitingBody(v: TQrView, view: Extract<TQrPageState, { state: "waiting" }>): THtml {
  return html`<p>${v.t("qr.scan")}</p>
<p>${{ markup: v.svg ?? "" }}</p>
<p>${v.t("qr.codeText")} <code id="qr-code">${view.code}</code></p>
<p class="hint" id="qr-wait" role="status" data-status="${v.statusUrl}">${v.t("qr.waiting", { wait: waitText(v.t, view.secondsLeft) })}</p>`;
}

const ENDED: Record<Exclude<TQrPageState["state"], "waiting">, "qr.refused" | "qr.expired" | "login.account_locked" | "login.inactivity_locked"> = {
  refused: "qr.refused",
  expired: "qr.expired",
  locked: "login.account_locked",
  inactive: "login.inactivity_locked",
};

/** The waiting page: the code until a decision, then what became of it and how to go on. */
export function qrView(v: TQrView): string {
  const waiting = v.view.state === "waiting";
  const body = html`<h1>${v.t("qr.title")}</h1>
<p class="muted">${v.t("login.to", { client: v.clientName })}</p>
${v.view.state === "waiting" ? waitingBody(v, v.view) : html`<p class="alert" role="alert">${v.t(ENDED[v.view.state])}</p>`}
${qrStartForm(v.startAction, v.csrf, v.t("qr.again"), waiting ? "secondary" : "primary")}
<p><a href="${v.passwordUrl}">${v.t("qr.password")}</a></p>`;
  return renderPage({ lang: v.lang, title: v.t("qr.title"), body, switchUrl: v.switchUrl, head: waiting ? WAITING_HEAD : undefined });
}
