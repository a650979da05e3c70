import type { TPendingEvent } from "../audit/audit.service.ts";
import { getClientForAuth, type TClientAuthRow } from "../clients/clients.service.ts";
import { AppError } from "../errors/app-error.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { continueAfterSignIn } from "../oauth/authorize/authorize.service.ts";
import { noteSignedIn } from "./account-checks.ts";
import { startBrowserSession } from "./browser-session.ts";
import { linkOnSignIn } from "./external-login.service.ts";
import type { TFlow } from "./login-flows.service.ts";
import { seeOther } from "./pages/page-route.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

// What every page of a login flow shares: the flow's client, the flow named in the query, and the
// end of a sign-in, whichever method and steps led there.

export async function clientOf(flow: TFlow) {
  const client = await getClientForAuth(flow.clientId);
  if (!client?.enabled) throw new AppError("login.flow_not_found");
  return client;
}

export function flowParam(req: TIncoming): string | null {
  return queryParam(req, "flow");
}

/**
 * The account is known (by password, or by QR code) and every step is passed: binds the external
 * account the link page marked for it, starts the browser session on this device and moves the flow
 * on (consent, or back to the client with a code).
 */
export async function completeSignIn(
  req: TIncoming,
  ctx: TRequestContext,
  flow: TFlow,
  client: TClientAuthRow,
  user: { userId: string; amr: string[]; authTime?: Date; events?: TPendingEvent[] },
): Promise<TAnswer> {
  ctx.clientId = client.id;
  await linkOnSignIn(flow.id, user.userId, { clientId: client.id, ...browserActor(req) });
  const { session, cookies } = await startBrowserSession(req, { userId: user.userId, amr: user.amr, authTime: user.authTime, events: user.events, ...browserActor(req) });
  await noteSignedIn(user.userId);
  return seeOther(await continueAfterSignIn(flow, client, session), cookies);
}
