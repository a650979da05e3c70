// GET /fa/callback – where external providers send the browser back after an authorization request
import { externalAuthCallbackRoute } from "@/server/federation/external-auth/callback.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = externalAuthCallbackRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(externalAuthCallbackRoute);
