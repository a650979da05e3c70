"use client";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isUnauthorized } from "./console/call-errors.ts";

/**
 * The query client of an app over tRPC. An ended session (expiry, lock, lost role, "sign out
 * everywhere") shows up as a 401 on any call: `onUnauthorized` then sends the browser to sign in.
 */
export function makeQueryClient(onUnauthorized: () => void): QueryClient {
  const onError = (error: unknown) => {
    if (isUnauthorized(error)) onUnauthorized();
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
