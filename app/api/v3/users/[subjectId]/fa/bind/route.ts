// POST /api/v3/users/current/fa/bind – start binding an external account through its provider
import { faBindV3Route } from "@/server/federation/external-auth/bind-flow.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = faBindV3Route;
export const { GET, PUT, PATCH, DELETE } = otherMethods(faBindV3Route);
