import { describe, expect, it } from "vitest";
import { textsFor } from "./i18n.ts";
import { loginView } from "./views.ts";

const base = (lang: "en" | "ru") => ({ lang, t: textsFor(lang), clientName: "Shop", action: "https://id.example/idp/login?flow=f", csrf: "csrf-field" });

describe("sign-in page with external providers", () => {
  it("offers each provider as a button of one POST form carrying the flow's CSRF field", () => {
    const page = loginView({ ...base("en"), external: { action: "https://id.example/idp/login/fa?flow=f", providers: [{ label: "oidc:corp", name: "corp" }, { label: "oauth2:git", name: "git" }] } });
    const form = /<form method="post" action="https:\/\/id.example\/idp\/login\/fa\?flow=f" aria-labelledby="external-heading">([\s\S]*?)<\/form>/.exec(page);
    expect(form).not.toBeNull();
    expect(form![1]).toContain('<input type="hidden" name="csrf_token" value="csrf-field">');
    expect(form![1]).toContain('<button type="submit" name="fp" value="oidc:corp" class="secondary">Sign in with corp</button>');
    expect(form![1]).toContain('<button type="submit" name="fp" value="oauth2:git" class="secondary">Sign in with git</button>');
    expect(page).toContain('id="external-heading">Or sign in with another account<');
  });

  it("has no provider form when none is offered, and says in Russian what a link page links", () => {
    expect(loginView({ ...base("en"), external: { action: "x", providers: [] } })).not.toContain("/login/fa");
    const notice = textsFor("ru")("login.linkNotice", { provider: "corp", name: "<ivan>" });
    const page = loginView({ ...base("ru"), notice });
    expect(page).toContain('<p class="notice" id="login-notice">Ваша учётная запись corp «&lt;ivan&gt;» ещё не связана');
  });
});
