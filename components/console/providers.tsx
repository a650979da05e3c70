"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { ContextPath, leaveTo, useContextPath } from "../context-path.tsx";
import type { TLang } from "../i18n.ts";
import { I18nProvider } from "../i18n-provider.tsx";
import { makeQueryClient } from "../query-client.ts";
import { TRPCProvider } from "./trpc.ts";

export { leaveTo, useContextPath };

type TProps = { contextPath: string; lang: TLang; children: ReactNode };

export function ConsoleProviders({ contextPath, lang, children }: TProps) {
  const [queryClient] = useState(() => makeQueryClient(() => leaveTo(contextPath, "/console/sign-in")));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${contextPath}/api/trpc` })] }),
  );
  return (
    <ContextPath.Provider value={contextPath}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <I18nProvider lang={lang}>{children}</I18nProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </ContextPath.Provider>
  );
}
