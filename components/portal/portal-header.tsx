"use client";
import { AUTH_APPS } from "@/server/auth/apps";
import { Brand } from "../brand.tsx";
import { LangToggle } from "../lang-toggle.tsx";
import { useContextPath } from "../context-path.tsx";
import { SignOutButton } from "../sign-out-button.tsx";
import { usePortalText } from "./i18n.ts";

/** The brand, who is signed in (name and account id), the language switch and sign-out. */
export function PortalHeader({ name, sub }: { name: string | null; sub: string }) {
  const t = usePortalText();
  const contextPath = useContextPath();
  return (
    <header className="app-header portal-header">
      <div className="app-header__inner portal-header__inner">
        <Brand title={t("portal.title")} href="/account" />
        <div className="portal-header__user">
          <LangToggle hint={t("portal.langHint")} />
          <span className="portal-header__who">
            <span className="ui-visually-hidden">{t("header.signedInAs")} </span>
            {name ? <strong data-testid="portal-user-name">{name}</strong> : null}
            <span className="portal-header__sub" data-testid="portal-user-sub">
              {sub}
            </span>
          </span>
          <SignOutButton contextPath={contextPath} clientId={AUTH_APPS.portal.clientId} label={t("header.signOut")} />
        </div>
      </div>
    </header>
  );
}
