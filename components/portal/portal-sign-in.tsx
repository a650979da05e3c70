"use client";
import { useSearchParams } from "next/navigation";
import { AUTH_APPS } from "@/server/auth/apps";
import { SignInCard } from "../sign-in-card.tsx";
import { usePortalText } from "./i18n.ts";

/** Back to where the visitor was, without a next-auth error left in the address. */
export function currentPage(): string {
  const back = new URL(window.location.href);
  back.searchParams.delete("error");
  return back.pathname + back.search;
}

/**
 * What the portal shows wherever a visitor has no session: one button that signs in at the service's
 * own sign-in page and comes back to the page the visitor asked for.
 */
export function PortalSignIn() {
  const t = usePortalText();
  // next-auth's error codes in words: a refusal by the service, or any other failure of the round trip.
  const error = useSearchParams().get("error");
  const message = !error ? null : error === "AccessDenied" ? t("signIn.denied") : t("signIn.failed");
  const text = {
    brand: t("portal.title"),
    title: t("signIn.title"),
    subtitle: t("signIn.subtitle"),
    submit: t("signIn.submit"),
    pending: t("signIn.pending"),
    failed: t("signIn.failed"),
    langHint: t("portal.langHint"),
  };
  return <SignInCard text={text} clientId={AUTH_APPS.portal.clientId} returnTo={currentPage} message={message} />;
}
