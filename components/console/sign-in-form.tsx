"use client";
import { signIn } from "next-auth/react";
import { useEffect, useState, type FormEvent } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { LangToggle } from "../lang-toggle.tsx";
import { leaveTo, useContextPath } from "./providers.tsx";

export function SignInForm() {
  const { t } = useI18n();
  const contextPath = useContextPath();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Until React has hydrated, a submit would be the browser's own: keep the button off until then.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      // redirect: false because next-auth would send the browser to the configured public URL,
      // which need not be the address this console was opened at.
      const result = await signIn("credentials", {
        login: String(form.get("login") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (result?.ok && !result.error) {
        leaveTo(contextPath, "/console/clients");
        return;
      }
      setError(result?.error === "CredentialsSignin" ? t("signIn.wrong") : t("signIn.failed"));
    } catch {
      setError(t("signIn.failed"));
    }
    setPending(false);
  }

  return (
    <main className="sign-in">
      <div className="sign-in__lang">
        <LangToggle />
      </div>
      {/* method="post": should a submit ever escape the handler, the password must not land in a URL. */}
      <form className="sign-in__card" method="post" onSubmit={submit} noValidate>
        <div className="console-brand console-brand--center">
          <span className="console-brand__mark" aria-hidden="true">
            ID
          </span>
          {t("app.title")}
        </div>
        <h1 className="sign-in__title">{t("signIn.title")}</h1>
        <p className="sign-in__subtitle">{t("signIn.subtitle")}</p>
        {error ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {error}
          </p>
        ) : null}
        <TextField label={t("signIn.login")} name="login" autoComplete="username" required autoFocus />
        <TextField label={t("signIn.password")} name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" variant="primary" disabled={pending || !hydrated} className="sign-in__submit">
          {pending ? t("signIn.pending") : t("signIn.submit")}
        </Button>
      </form>
    </main>
  );
}
