// POST /oauth/register – dynamic registration of a mobile application instance (RFC 7591)
import { dynamicRegistrationRoute } from "@/server/dyn-clients/dyn-clients.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = dynamicRegistrationRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(dynamicRegistrationRoute);
