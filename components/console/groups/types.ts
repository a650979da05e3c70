import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type TGroupsOutputs = inferRouterOutputs<AppRouter>["console"]["groups"];

export type TProfileView = TGroupsOutputs["profiles"][number];
export type TGroupAttrDefView = TProfileView["attributes"][number];
export type TGroupRow = TGroupsOutputs["list"]["items"][number];
export type TGroupDetail = TGroupsOutputs["get"];
