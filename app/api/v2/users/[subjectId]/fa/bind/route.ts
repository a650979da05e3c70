// POST /api/v2/users/current/fa/bind – start binding an external account (HTTP Basic, deprecated)
import { faBindV2Route } from "@/server/federation/external-auth/bind-flow.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = faBindV2Route;
export const { GET, PUT, PATCH, DELETE } = otherMethods(faBindV2Route);
