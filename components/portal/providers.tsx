"use client";
import type { ReactNode } from "react";
import { AppProviders } from "../app-providers.tsx";
import type { TLang } from "../i18n.ts";
import { TRPCProvider } from "./trpc.ts";

/** A 401 sends the browser back to /account, whose layout then offers to sign in again. */
export function PortalProviders({ contextPath, lang, children }: { contextPath: string; lang: TLang; children: ReactNode }) {
  return (
    <AppProviders contextPath={contextPath} lang={lang} unauthorizedPath="/account" TRPCProvider={TRPCProvider}>
      {children}
    </AppProviders>
  );
}
