"use client";
import * as NavigationMenu from "@radix-ui/react-navigation-menu";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Brand } from "../brand.tsx";
import type { TMessageKey } from "../i18n.ts";
import { useI18n } from "../i18n-provider.tsx";
import { AUTH_APPS } from "@/server/auth/apps";
import { LangToggle } from "../lang-toggle.tsx";
import { SignOutButton } from "../sign-out-button.tsx";
import { useContextPath } from "./providers.tsx";
import { useViewerRoles } from "./viewer.tsx";

type TNavLink = { href: string; label: TMessageKey };
type TNavGroup = { label: TMessageKey; links: TNavLink[] };

// Sections the console grows into are grouped, so the header stays one row in Russian at 1280 px:
// people and applications first, then who may do what to whom, then the settings that guard
// accounts, then what people are sent and shown (messages, the sign-in pages' look).
// The overview (the console's home) is the brand's link: one more entry would not fit that row.
const NAV: (TNavLink | TNavGroup)[] = [
  { href: "/console/users", label: "nav.users" },
  { href: "/console/clients", label: "nav.clients" },
  { href: "/console/attributes", label: "nav.attributes" },
  {
    label: "nav.access",
    links: [
      { href: "/console/rights", label: "nav.rights" },
      { href: "/console/right-definitions", label: "nav.rightDefinitions" },
      { href: "/console/groups", label: "nav.groups" },
      { href: "/console/group-profiles", label: "nav.groupProfiles" },
    ],
  },
  {
    label: "nav.security",
    links: [
      { href: "/console/events", label: "nav.events" },
      { href: "/console/password-policy", label: "nav.passwordPolicy" },
      { href: "/console/passkey-policy", label: "nav.passkeyPolicy" },
      { href: "/console/otp-devices", label: "nav.otpDevices" },
      { href: "/console/providers", label: "nav.providers" },
      { href: "/console/saml", label: "nav.saml" },
      { href: "/console/directories", label: "nav.directories" },
      { href: "/console/signing-keys", label: "nav.signingKeys" },
    ],
  },
  {
    label: "nav.messages",
    links: [
      { href: "/console/outbox", label: "nav.outbox" },
      { href: "/console/delivery", label: "nav.delivery" },
      { href: "/console/templates", label: "nav.templates" },
      { href: "/console/branding", label: "nav.branding" },
    ],
  },
];

/** A section link; Radix marks the current page with aria-current="page". */
function NavLink({ link, pathname, className }: { link: TNavLink; pathname: string; className: string }) {
  const { t } = useI18n();
  return (
    <NavigationMenu.Link asChild active={pathname.startsWith(link.href)}>
      <Link href={link.href} className={className}>
        {t(link.label)}
      </Link>
    </NavigationMenu.Link>
  );
}

/** The console's sections: links, and groups that open a list of links (Radix NavigationMenu: keyboard and focus handled). */
function ConsoleNav() {
  const { t } = useI18n();
  const pathname = usePathname();
  return (
    <NavigationMenu.Root className="console-nav" aria-label={t("app.title")}>
      <NavigationMenu.List className="console-nav__list">
        {NAV.map((entry) =>
          "href" in entry ? (
            <NavigationMenu.Item key={entry.href}>
              <NavLink link={entry} pathname={pathname} className="console-nav__link" />
            </NavigationMenu.Item>
          ) : (
            <NavigationMenu.Item key={entry.label} className="console-nav__group">
              <NavigationMenu.Trigger className="console-nav__link console-nav__trigger" data-current={entry.links.some((l) => pathname.startsWith(l.href)) || undefined}>
                {t(entry.label)}
              </NavigationMenu.Trigger>
              <NavigationMenu.Content className="console-nav__menu">
                <ul>
                  {entry.links.map((link) => (
                    <li key={link.href}>
                      <NavLink link={link} pathname={pathname} className="console-nav__menu-link" />
                    </li>
                  ))}
                </ul>
              </NavigationMenu.Content>
            </NavigationMenu.Item>
          ),
        )}
      </NavigationMenu.List>
    </NavigationMenu.Root>
  );
}

/** `name`: the administrator's own name when their account has one, shown before the login. */
export function ConsoleHeader({ login, name }: { login: string; name: string | null }) {
  const { t } = useI18n();
  const contextPath = useContextPath();
  const roles = useViewerRoles();
  return (
    <header className="app-header console-header">
      <div className="app-header__inner console-header__inner">
        <Brand title={t("app.title")} href="/console/dashboard" />
        <ConsoleNav />
        <div className="console-header__user">
          <LangToggle />
          <span className="console-header__who">
            <span className="console-header__prefix">{t("header.signedInAs")} </span>
            {name ? (
              <>
                <strong data-testid="signed-in-name">{name}</strong> <span className="console-header__login">(<span data-testid="signed-in-login">{login}</span>)</span>
              </>
            ) : (
              <strong data-testid="signed-in-login">{login}</strong>
            )}
            {roles.includes("admin") ? null : <span className="console-header__login" data-testid="signed-in-role"> · {roles.map((r) => t(`role.${r}` as TMessageKey)).join(", ")}</span>}
          </span>
          <SignOutButton contextPath={contextPath} clientId={AUTH_APPS.console.clientId} label={t("header.signOut")} />
        </div>
      </div>
    </header>
  );
}
