import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

export type TAccountSecurity = inferRouterOutputs<AppRouter>["console"]["accountSecurity"]["get"];
export type TNotify = (notice: { text: string; error: boolean } | null) => void;
