"use client";
import { useEffect, useState } from "react";
import { startSignIn } from "./auth-client.ts";
import { Brand } from "./brand.tsx";
import { useI18n } from "./i18n-provider.tsx";
import { useContextPath } from "./context-path.tsx";
import { LangToggle } from "./lang-toggle.tsx";
import { Button } from "./ui/button.tsx";

export type TSignInCardText = { brand: string; title: string; subtitle: string; submit: string; pending: string; failed: string; langHint?: string };

type TProps = {
  text: TSignInCardText;
  /** The built-in client (= next-auth provider) to sign in with. */
  clientId: string;
  /** Where the browser returns after signing in (a path under the context path, with it). */
  returnTo: () => string;
  /** A refusal or failure to show, in words. */
  message?: string | null;
  /** Extra authorization request parameters (`prompt: "login"` to sign in as someone else). */
  params?: Record<string, string>;
  /**
   * Go to the service's sign-in page at once, without waiting for a click: where the card has
   * nothing to say (no refusal, no failure), a button would only be a stop on the way.
   */
  auto?: boolean;
};

/**
 * The sign-in card of console and portal: one button that goes to the service's own sign-in page.
 * The password is never typed here.
 */
export function SignInCard({ text, clientId, returnTo, message, params, auto = false }: TProps) {
  const contextPath = useContextPath();
  const { lang } = useI18n();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  // Until React has hydrated, the button would do nothing: keep it off until then.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (auto && !message) void signIn();
    // Once, on the first render in the browser.
  }, []);

  async function signIn() {
    setPending(true);
    setFailed(false);
    try {
      // The service's sign-in page speaks the language this page was shown in (its toggle included).
      await startSignIn(contextPath, clientId, returnTo(), { ui_locales: lang, ...params });
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  const shown = failed ? text.failed : message;
  // On the way to the service's sign-in page: nothing to read or press (the card comes back on a failure).
  if (auto && !message && !failed) {
    return (
      <main className="sign-in">
        <p className="sign-in__subtitle" role="status">
          {text.pending}
        </p>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <div className="sign-in__lang">
        <LangToggle hint={text.langHint} />
      </div>
      <div className="sign-in__card">
        <Brand title={text.brand} />
        <h1 className="sign-in__title">{text.title}</h1>
        <p className="sign-in__subtitle">{text.subtitle}</p>
        {shown ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {shown}
          </p>
        ) : null}
        <Button variant="primary" className="sign-in__submit" disabled={pending || !hydrated} onClick={signIn}>
          {pending ? text.pending : text.submit}
        </Button>
      </div>
    </main>
  );
}
