import type { ReactNode } from "react";

/** What keeps a form from being saved, above its fields, announced at once; nothing when there is none. */
export function FormAlert({ text }: { text: ReactNode }) {
  if (!text) return null;
  return (
    <p className="ui-alert ui-alert--error" role="alert">
      {text}
    </p>
  );
}
