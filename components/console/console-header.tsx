"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Brand } from "../brand.tsx";
import type { TMessageKey } from "../i18n.ts";
import { useI18n } from "../i18n-provider.tsx";
import { AUTH_APPS } from "@/server/auth/apps";
import { LangToggle } from "../lang-toggle.tsx";
import { SignOutButton } from "../sign-out-button.tsx";
import { useContextPath } from "./providers.tsx";

const NAV: { href: string; label: TMessageKey }[] = [
  { href: "/console/users", label: "nav.users" },
  { href: "/console/attributes", label: "nav.attributes" },
  { href: "/console/clients", label: "nav.clients" },
  { href: "/console/outbox", label: "nav.outbox" },
  { href: "/console/delivery", label: "nav.delivery" },
  { href: "/console/password-policy", label: "nav.passwordPolicy" },
  { href: "/console/events", label: "nav.events" },
  { href: "/console/otp-devices", label: "nav.otpDevices" },
];

export function ConsoleHeader({ login }: { login: string }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const contextPath = useContextPath();
  return (
    <header className="app-header console-header">
      <div className="app-header__inner console-header__inner">
        <Brand title={t("app.title")} href="/console/clients" />
        <nav className="console-nav" aria-label={t("app.title")}>
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} className="console-nav__link" aria-current={pathname.startsWith(item.href) ? "page" : undefined}>
              {t(item.label)}
            </Link>
          ))}
        </nav>
        <div className="console-header__user">
          <LangToggle />
          <span className="console-header__who">
            <span className="console-header__prefix">{t("header.signedInAs")} </span>
            <strong data-testid="signed-in-login">{login}</strong>
          </span>
          <SignOutButton contextPath={contextPath} clientId={AUTH_APPS.console.clientId} label={t("header.signOut")} />
        </div>
      </div>
    </header>
  );
}
