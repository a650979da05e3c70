"use client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

// The portal's own tRPC context: its query cache and 401 handling are not the console's.
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export type TPortalOutputs = inferRouterOutputs<AppRouter>["portal"];
export type TOverview = TPortalOutputs["me"];
