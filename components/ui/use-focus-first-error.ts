"use client";
import { useEffect, useRef } from "react";

/**
 * After a refused submit, moves focus to the first field marked invalid, so a keyboard or screen
 * reader user lands where the form needs them. Every field's message is already shown (one pass);
 * this only decides where the cursor goes. `errors` is the refusal (any new object re-focuses).
 */
export function useFocusFirstError<T extends HTMLElement>(errors: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!errors) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return ref;
}
