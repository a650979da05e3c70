"use client";
import { useRef, useState } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { TextField } from "../ui/field.tsx";

export type TOneTimeSecret = { title: string; label: string; value: string };

/**
 * Shows a generated credential once. It lives only in this component's props: closing the panel
 * drops it, and it is never logged, stored or put in a URL.
 */
export function OneTimeSecret({ secret, onClose }: { secret: TOneTimeSecret | null; onClose: () => void }) {
  const { t } = useI18n();
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const field = useRef<HTMLInputElement>(null);

  async function copyValue() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.value);
      setCopy("copied");
    } catch {
      // The Clipboard API needs a secure context; over plain HTTP select the text for a manual copy.
      field.current?.select();
      setCopy("failed");
    }
  }

  function close() {
    setCopy("idle");
    onClose();
  }

  return (
    <Dialog
      open={!!secret}
      title={secret?.title}
      onClose={close}
      dismissible={false}
      footer={
        <Button variant="primary" onClick={close}>
          {t("secret.done")}
        </Button>
      }
    >
      {secret ? (
        <div className="one-time-secret">
          <p className="ui-alert ui-alert--warn" role="note">
            {t("secret.once")}
          </p>
          <div className="one-time-secret__row">
            <TextField
              ref={field}
              label={secret.label}
              value={secret.value}
              readOnly
              className="one-time-secret__field"
              spellCheck={false}
              autoComplete="off"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button onClick={copyValue} className="one-time-secret__copy">
              {copy === "copied" ? t("secret.copied") : t("secret.copy")}
            </Button>
          </div>
          {copy === "failed" ? (
            <p className="ui-field__hint" role="status">
              {t("secret.copyFailed")}
            </p>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
