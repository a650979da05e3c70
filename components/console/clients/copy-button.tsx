"use client";
import { useState } from "react";
import { Button } from "../../ui/button.tsx";
import { useClientsText } from "./i18n.ts";

/** Copies `value`; says so for a moment. Without the Clipboard API (plain http) the text stays selectable. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const c = useClientsText();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  }
  return (
    <Button size="sm" variant="ghost" onClick={copy} aria-label={c("page.copyOf", { what })}>
      {copied ? c("page.copied") : c("page.copy")}
    </Button>
  );
}
