import type { TPortalOutputs } from "../trpc.ts";

export type TProfile = TPortalOutputs["profile"]["get"];
export type TProfileField = TProfile["fields"][number];
export type TContact = TProfile["contacts"][number];
export type TPending = NonNullable<TContact["pending"]>;

export type { TNotice } from "../portal-states.tsx";
