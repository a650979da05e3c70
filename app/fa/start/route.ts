// GET and POST /fa/start – a binding continues in the user's browser: the portal's session, confirmation, then the provider
import { faStartConfirmRoute, faStartRoute } from "@/server/federation/external-auth/bind-start.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = faStartRoute;
export const POST = faStartConfirmRoute;
export const { PUT, PATCH, DELETE } = otherMethods(faStartRoute, faStartConfirmRoute);
