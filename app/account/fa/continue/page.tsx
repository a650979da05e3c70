import { redirect } from "next/navigation";
import { portalUserOf, readPortalSession } from "@/server/auth/portal-session";

/**
 * Where {ctx}/fa/start sends a browser without the portal's session: the portal's layout shows its
 * sign-in here, and once signed in the browser goes back to continue the binding.
 */
export default async function ContinueBinding({ searchParams }: { searchParams: Promise<{ req?: string | string[] }> }) {
  const { req } = await searchParams;
  const user = await portalUserOf(await readPortalSession());
  if (user && typeof req === "string") redirect(`/fa/start?${new URLSearchParams({ req })}`);
  return null;
}
