import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type TUsersOutputs = inferRouterOutputs<AppRouter>["console"]["users"];

/** One account as the console's detail page receives it (dates arrive as ISO strings). */
export type TUserDetail = TUsersOutputs["get"];
export type TUserRow = TUsersOutputs["list"]["items"][number];
/** An attribute definition of the catalog. */
export type TAttributeDefView = TUserDetail["catalog"][number];
