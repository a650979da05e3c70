"use client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** A client application as the console receives it (dates arrive as ISO strings). */
export type TConsoleClient = inferRouterOutputs<AppRouter>["console"]["clients"]["get"];
