"use client";
import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { TRPCClient } from "@trpc/client";
import type { QueryClient } from "@tanstack/react-query";
import { useState, type ComponentType, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { MAX_TRPC_BATCH } from "@/server/trpc/trpc.shared";
import { ContextPath, leaveTo } from "./context-path.tsx";
import type { TLang } from "./i18n.ts";
import { I18nProvider } from "./i18n-provider.tsx";
import { makeQueryClient } from "./query-client.ts";

type TTRPCProvider = ComponentType<{ trpcClient: TRPCClient<AppRouter>; queryClient: QueryClient; children: ReactNode }>;

/**
 * What the console and the portal both wrap their pages in: context path, query cache, tRPC client
 * and language. Each app passes its own tRPC context and where a 401 sends the browser.
 */
export function AppProviders(props: { contextPath: string; lang: TLang; unauthorizedPath: string; TRPCProvider: TTRPCProvider; children: ReactNode }) {
  const { contextPath, lang, unauthorizedPath, TRPCProvider, children } = props;
  const [queryClient] = useState(() => makeQueryClient(() => leaveTo(contextPath, unauthorizedPath)));
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${contextPath}/api/trpc`, maxItems: MAX_TRPC_BATCH })] }));
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
