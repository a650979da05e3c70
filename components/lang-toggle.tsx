"use client";
import { useRouter } from "next/navigation";
import { useContextPath } from "./context-path.tsx";
import { LANG_COOKIE } from "./i18n.ts";
import { useI18n } from "./i18n-provider.tsx";
import { Button } from "./ui/button.tsx";

/**
 * Remembers the choice in a cookie (shared by console, portal and sign-in pages) and re-renders on
 * the server, which picks the language. `hint` names what is switched (the console, the account pages).
 */
export function LangToggle({ hint }: { hint?: string }) {
  const { lang, t } = useI18n();
  const contextPath = useContextPath();
  const router = useRouter();
  const next = lang === "en" ? "ru" : "en";
  return (
    <Button
      variant="ghost"
      size="sm"
      lang={next}
      title={hint ?? t("lang.toggleHint")}
      onClick={() => {
        document.cookie = `${LANG_COOKIE}=${next}; path=${contextPath || "/"}; max-age=31536000; samesite=lax`;
        router.refresh();
      }}
    >
      {t("lang.toggle")}
    </Button>
  );
}
