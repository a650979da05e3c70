"use client";
import { useI18n } from "../i18n-provider.tsx";
import { messageOf } from "./call-errors.ts";

type TSaveState = { isSuccess: boolean; isError: boolean; error: unknown };

/** What a settings form says after a save: that it is saved, or the refusal when no field explains it. */
export function SaveOutcome({ save, savedText, fieldErrors }: { save: TSaveState; savedText: string; fieldErrors: Record<string, string> }) {
  const { t } = useI18n();
  if (save.isSuccess) {
    return (
      <p className="ui-alert ui-alert--info" role="status">
        {savedText}
      </p>
    );
  }
  if (!save.isError || Object.keys(fieldErrors).length > 0) return null;
  return (
    <p className="ui-alert ui-alert--error" role="alert">
      {messageOf(save.error, t)}
    </p>
  );
}
