"use client";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { AUTH_APPS } from "@/server/auth/apps";
import { Brand } from "../brand.tsx";
import { startSignIn } from "../auth-client.ts";
import { useContextPath } from "../context-path.tsx";
import { LangToggle } from "../lang-toggle.tsx";
import { Button } from "../ui/button.tsx";
import { usePortalText, type TPortalKey } from "./i18n.ts";

/** next-auth's error codes in words: a refusal by the service, or any other failure of the round trip. */
function errorKey(code: string | null): TPortalKey | null {
  if (!code) return null;
  return code === "AccessDenied" ? "signIn.denied" : "signIn.failed";
}

/**
 * What the portal shows wherever a visitor has no session: one button that starts the sign-in at the
 * service's own sign-in page and comes back to the page the visitor asked for.
 */
export function PortalSignIn() {
  const t = usePortalText();
  const contextPath = useContextPath();
  const error = errorKey(useSearchParams().get("error"));
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  // Until React has hydrated, the button would do nothing: keep it off until then.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function signIn() {
    setPending(true);
    setFailed(false);
    // Back to where the visitor was, without a next-auth error left in the address.
    const back = new URL(window.location.href);
    back.searchParams.delete("error");
    try {
      await startSignIn(contextPath, AUTH_APPS.portal.clientId, back.pathname + back.search);
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  const message = failed ? t("signIn.failed") : error ? t(error) : null;
  return (
    <main className="sign-in">
      <div className="sign-in__lang">
        <LangToggle hint={t("portal.langHint")} />
      </div>
      <div className="sign-in__card">
        <Brand title={t("portal.title")} />
        <h1 className="sign-in__title">{t("signIn.title")}</h1>
        <p className="sign-in__subtitle">{t("signIn.subtitle")}</p>
        {message ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {message}
          </p>
        ) : null}
        <Button variant="primary" className="sign-in__submit" disabled={pending || !hydrated} onClick={signIn}>
          {pending ? t("signIn.pending") : t("signIn.submit")}
        </Button>
      </div>
    </main>
  );
}
