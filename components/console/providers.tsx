"use client";
import type { ReactNode } from "react";
import { AppProviders } from "../app-providers.tsx";
import { leaveTo, useContextPath } from "../context-path.tsx";
import type { TLang } from "../i18n.ts";
import { TRPCProvider } from "./trpc.ts";

export { leaveTo, useContextPath };

/** A 401 sends the browser to the console's sign-in page. */
export function ConsoleProviders({ contextPath, lang, children }: { contextPath: string; lang: TLang; children: ReactNode }) {
  return (
    <AppProviders contextPath={contextPath} lang={lang} unauthorizedPath="/console/sign-in" TRPCProvider={TRPCProvider}>
      {children}
    </AppProviders>
  );
}
