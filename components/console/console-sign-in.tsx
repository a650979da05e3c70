"use client";
import { AUTH_APPS } from "@/server/auth/apps";
import { useI18n } from "../i18n-provider.tsx";
import type { TMessageKey } from "../i18n.ts";
import { SignInCard } from "../sign-in-card.tsx";
import { useContextPath } from "./providers.tsx";

/** Why the console's sign-in page is shown again: refused, ended, or failed on the way. */
export type TSignInReason = "not_admin" | "ended" | "failed" | null;

const MESSAGE: Record<Exclude<TSignInReason, null>, TMessageKey> = {
  not_admin: "signIn.notAdmin",
  ended: "signIn.ended",
  failed: "signIn.failed",
};

export function ConsoleSignIn({ reason }: { reason: TSignInReason }) {
  const { t } = useI18n();
  const contextPath = useContextPath();
  const text = {
    brand: t("app.title"),
    title: t("signIn.title"),
    subtitle: t("signIn.subtitle"),
    submit: t("signIn.submit"),
    pending: t("signIn.pending"),
    failed: t("signIn.failed"),
  };
  return (
    <SignInCard
      text={text}
      clientId={AUTH_APPS.console.clientId}
      returnTo={() => `${contextPath}${AUTH_APPS.console.home}`}
      message={reason ? t(MESSAGE[reason]) : null}
      // Whoever was refused is still signed in at the service: let them sign in as someone else.
      params={reason === "not_admin" ? { prompt: "login" } : undefined}
      // Nothing to say: straight on to the service's sign-in page (the button stays for a failure).
      auto={reason === null}
    />
  );
}
