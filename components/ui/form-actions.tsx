import type { ReactNode } from "react";
import { Button } from "./button.tsx";

type TProps = { pending: boolean; cancelLabel?: ReactNode; submitLabel: ReactNode; pendingLabel: ReactNode; onCancel?: () => void };

/** A form's closing row: Cancel (when the form can be left) and the submit button, both idle while it saves. */
export function FormActions({ pending, cancelLabel, submitLabel, pendingLabel, onCancel }: TProps) {
  return (
    <div className="client-form__actions">
      {onCancel ? (
        <Button onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
      ) : null}
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}
