"use client";
import { createContext, useContext, type ReactNode } from "react";

/** Who is signed in to the console and what their roles let them do (server/users/admin.service.ts). */
export type TConsoleViewer = { roles: string[]; grants: string[] };

const ViewerContext = createContext<TConsoleViewer>({ roles: [], grants: [] });

/** Set by the console's layout from the session it checked; the server checks every call again. */
export function ConsoleViewerProvider({ viewer, children }: { viewer: TConsoleViewer; children: ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

/** Whether the viewer may: buttons they may not use are not shown (the server would refuse them). */
export function useCan(grant: "manage_users" | "configure"): boolean {
  return useContext(ViewerContext).grants.includes(grant);
}

export function useViewerRoles(): string[] {
  return useContext(ViewerContext).roles;
}
