"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { usePortalText, type TPortalKey } from "./i18n.ts";

const SECTIONS: { href: string; label: TPortalKey }[] = [
  { href: "/account", label: "nav.overview" },
  { href: "/account/profile", label: "nav.profile" },
  { href: "/account/password", label: "nav.password" },
  { href: "/account/security-question", label: "nav.securityQuestion" },
  { href: "/account/devices", label: "nav.devices" },
  { href: "/account/two-factor", label: "nav.twoFactor" },
  { href: "/account/passkeys", label: "nav.passkeys" },
  { href: "/account/linked-accounts", label: "nav.linked" },
  { href: "/account/consents", label: "nav.consents" },
  { href: "/account/events", label: "nav.events" },
];

/** The overview is current only on /account itself; every other section also on its sub-pages. */
function isCurrent(pathname: string, href: string): boolean {
  return href === "/account" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

export function PortalNav() {
  const t = usePortalText();
  const pathname = usePathname();
  return (
    <nav className="portal-nav" aria-label={t("nav.label")}>
      <ul className="portal-nav__list">
        {SECTIONS.map((s) => (
          <li key={s.href}>
            <Link href={s.href} className="portal-nav__link" aria-current={isCurrent(pathname, s.href) ? "page" : undefined}>
              {t(s.label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
