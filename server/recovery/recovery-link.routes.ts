import { readForm } from "../http/form.ts";
import { queryParam, type TIncoming } from "../http/exchange.ts";
import { browserActor } from "../http/request-context.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute } from "../html/page-route.ts";
import { pickLang } from "../html/texts.ts";
import { textsFor } from "../sign-in/pages/i18n.ts";
import { recoveryTextsFor } from "./pages/recovery-i18n.ts";
import { linkView } from "./pages/recovery-views.ts";
import { INVITE_PATH, inviteUsable, useRecoveryInvite } from "./recovery-invites.service.ts";

// {ctx}/login/recover/link?t=… – the link of an administrator's recovery message. Opening it uses
// nothing (mail scanners open links); submitting the form with a password the policy accepts does.

/** Nothing longer than a token is read. */
const tokenOf = (req: TIncoming) => (queryParam(req, "t") ?? "").slice(0, 64);

function render(req: TIncoming, state: "form" | "spent" | "done", status: number, problems: string[] = []) {
  const lang = pickLang(req, undefined);
  const t = tokenOf(req);
  const view = linkView({
    lang,
    rt: recoveryTextsFor(lang),
    t: textsFor(lang),
    state,
    problems,
    action: pageLink(INVITE_PATH, { t, lang }),
    switchUrl: pageLink(INVITE_PATH, { t, lang: lang === "ru" ? "en" : "ru" }),
    accountUrl: pageLink("/account", {}),
  });
  return htmlResponse(view, status);
}

// GET {ctx}/login/recover/link?t=… – the new password form, or why the link no longer works
export const recoveryLinkPage = pageRoute("GET", INVITE_PATH, async (req) => ((await inviteUsable(tokenOf(req))) ? render(req, "form", 200) : render(req, "spent", 410)));

// POST {ctx}/login/recover/link?t=… – set the password (the policy applies; every session ends)
export const recoveryLinkSubmit = pageRoute("POST", INVITE_PATH, async (req) => {
  const form = await readForm(req);
  const lang = pickLang(req, undefined);
  const password = form.get("password") ?? "";
  if (!(await inviteUsable(tokenOf(req)))) return render(req, "spent", 410);
  if (password !== (form.get("repeat") ?? "")) return render(req, "form", 400, [textsFor(lang)("pwchange.mismatch")]);
  const used = await useRecoveryInvite(tokenOf(req), password, lang, browserActor(req));
  if (used.ok) return render(req, "done", 200);
  return used.reason === "spent" ? render(req, "spent", 410) : render(req, "form", 400, used.problems);
});
