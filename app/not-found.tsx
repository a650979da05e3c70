// The service's own page for an address it does not serve (outside the API, whose unknown paths
// answer JSON 404s in their family's shape): in the visitor's language, with the way to their account.
import { cookies, headers } from "next/headers";
import Link from "next/link";
import { LANG_COOKIE, pickLang } from "@/components/i18n";
import "@/components/not-found.css";

const TEXTS = {
  en: { title: "Page not found", body: "There is no page at this address. Check the link you followed, or go to your account.", account: "Your account" },
  ru: { title: "Страница не найдена", body: "По этому адресу страницы нет. Проверьте ссылку или перейдите в свою учётную запись.", account: "Ваша учётная запись" },
} as const;

export const metadata = { title: "Page not found", robots: { index: false, follow: false } };

export default async function NotFound() {
  const lang = pickLang((await cookies()).get(LANG_COOKIE)?.value, (await headers()).get("accept-language"));
  const t = TEXTS[lang];
  return (
    <div className="not-found" lang={lang}>
      <main>
        <h1>{t.title}</h1>
        <p>{t.body}</p>
        <p>
          <Link href="/account">{t.account}</Link>
        </p>
      </main>
    </div>
  );
}
