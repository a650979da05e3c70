"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { useState } from "react";
import type { TMessageKey } from "../i18n.ts";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { LangToggle } from "./lang-toggle.tsx";
import { leaveTo, useContextPath } from "./providers.tsx";

const NAV: { href: string; label: TMessageKey }[] = [
  { href: "/console/users", label: "nav.users" },
  { href: "/console/attributes", label: "nav.attributes" },
  { href: "/console/clients", label: "nav.clients" },
  { href: "/console/outbox", label: "nav.outbox" },
  { href: "/console/delivery", label: "nav.delivery" },
  { href: "/console/events", label: "nav.events" },
];

export function ConsoleHeader({ login }: { login: string }) {
  const { t } = useI18n();
  const pathname = usePathname();
  const contextPath = useContextPath();
  const [leaving, setLeaving] = useState(false);
  return (
    <header className="console-header">
      <div className="console-header__inner">
        <Link href="/console/clients" className="console-brand">
          <span className="console-brand__mark" aria-hidden="true">
            ID
          </span>
          {t("app.title")}
        </Link>
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
          <Button
            size="sm"
            disabled={leaving}
            onClick={async () => {
              setLeaving(true);
              // next-auth's own redirect would use the configured public URL; stay on this host.
              await signOut({ redirect: false });
              leaveTo(contextPath, "/console/sign-in");
            }}
          >
            {t("header.signOut")}
          </Button>
        </div>
      </div>
    </header>
  );
}
