"use client";
import { useEffect, useState } from "react";
import { startSignIn } from "./auth-client.ts";
import { Brand } from "./brand.tsx";
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
};

/**
 * The sign-in card of console and portal: one button that goes to the service's own sign-in page.
 * The password is never typed here.
 */
export function SignInCard({ text, clientId, returnTo, message, params }: TProps) {
  const contextPath = useContextPath();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  // Until React has hydrated, the button would do nothing: keep it off until then.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function signIn() {
    setPending(true);
    setFailed(false);
    try {
      await startSignIn(contextPath, clientId, returnTo(), params);
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  const shown = failed ? text.failed : message;
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
