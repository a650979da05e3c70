"use client";
import { useRouter } from "next/navigation";
import { LANG_COOKIE } from "../i18n.ts";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { useContextPath } from "./providers.tsx";

/** Remembers the choice in a cookie and re-renders on the server, which picks the language. */
export function LangToggle() {
  const { lang, t } = useI18n();
  const contextPath = useContextPath();
  const router = useRouter();
  const next = lang === "en" ? "ru" : "en";
  return (
    <Button
      variant="ghost"
      size="sm"
      lang={next}
      title={t("lang.toggleHint")}
      onClick={() => {
        document.cookie = `${LANG_COOKIE}=${next}; path=${contextPath || "/"}; max-age=31536000; samesite=lax`;
        router.refresh();
      }}
    >
      {t("lang.toggle")}
    </Button>
  );
}
