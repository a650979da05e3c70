import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountIdOfSubject } from "../users/subject-param.ts";
import { changeAuthModes, type TAuthModes, type TAuthModesChange } from "./auth-modes.service.ts";
import { requireRecentAuth } from "./recent-auth.ts";

/** POST /api/v3/users/{subjectId}/auth: in user mode a change of how the person signs in is a change of factors. */
export async function changeAuthModesOfSubject(ctx: TRequestContext, subjectId: string, change: TAuthModesChange): Promise<TAuthModes> {
  await requireRecentAuth(ctx);
  return changeAuthModes(await accountIdOfSubject(ctx, subjectId), change, eventActorOf(ctx));
}
