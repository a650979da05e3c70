"use client";
import type { ReactNode } from "react";
import { LoadingState, Notice } from "../console/list-parts.tsx";
import { Button } from "../ui/button.tsx";
import { usePortalErrorText, usePortalStateText } from "./portal-errors.ts";
import { formatDateTime } from "../date-time.tsx";

export { Notice };

/** The outcome of the last action on a page, told above its sections. */
export type TNotice = { text: string; error?: boolean } | null;

/** A section still loading, announced politely. */
export function PortalLoading() {
  const t = usePortalStateText();
  return <LoadingState label={t("state.loading")} />;
}

/** A section that could not be loaded: what failed, in general terms why, and a way to try again. */
export function PortalLoadFailed({ label, error, onRetry }: { label: ReactNode; error: unknown; onRetry: () => void }) {
  const t = usePortalStateText();
  const reason = usePortalErrorText();
  return (
    <div className="state">
      <p className="ui-alert ui-alert--error" role="alert">
        {label} {reason(error)}
      </p>
      <Button onClick={onRetry}>{t("state.retry")}</Button>
    </div>
  );
}

/** A date and time in the reader's language, from Unix seconds: the console's and the portal's one format. */
export function formatTime(unix: number, lang: string): string {
  return formatDateTime(unix * 1000, lang === "ru" ? "ru" : "en");
}
