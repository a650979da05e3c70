"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { Session } from "next-auth";
import { SessionProvider } from "next-auth/react";
import { createContext, useContext, useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";
import type { TLang } from "../i18n.ts";
import { I18nProvider } from "../i18n-provider.tsx";
import { isUnauthorized } from "./call-errors.ts";
import { TRPCProvider } from "./trpc.ts";

const ContextPath = createContext("");

/** Next's basePath (the IdP's context path), for the few places that leave Next's router. */
export function useContextPath(): string {
  return useContext(ContextPath);
}

/** A hard navigation: drops every cached client record and secret held in memory. */
export function leaveTo(contextPath: string, page: string): void {
  window.location.assign(`${contextPath}${page}`);
}

function makeQueryClient(contextPath: string): QueryClient {
  // An ended session (expiry, lock, lost role) shows up as a 401 on any call: go and sign in again.
  const onError = (error: unknown) => {
    if (isUnauthorized(error)) leaveTo(contextPath, "/console/sign-in");
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isUnauthorized(error) && count < 2,
      },
    },
  });
}

type TProps = { contextPath: string; lang: TLang; session: Session | null; children: ReactNode };

export function ConsoleProviders({ contextPath, lang, session, children }: TProps) {
  const [queryClient] = useState(() => makeQueryClient(contextPath));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${contextPath}/api/trpc` })] }),
  );
  return (
    <ContextPath.Provider value={contextPath}>
      <SessionProvider basePath={`${contextPath}/api/auth`} session={session} refetchOnWindowFocus={false}>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
            <I18nProvider lang={lang}>{children}</I18nProvider>
          </TRPCProvider>
        </QueryClientProvider>
      </SessionProvider>
    </ContextPath.Provider>
  );
}
