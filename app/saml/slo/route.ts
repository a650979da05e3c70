// GET|POST /saml/slo – SAML single logout service (HTTP-Redirect and HTTP-POST bindings)
import { samlSloGetRoute, samlSloPostRoute } from "@/server/saml/slo/slo.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = samlSloGetRoute;
export const POST = samlSloPostRoute;
export const { PUT, PATCH, DELETE } = otherMethods(samlSloGetRoute, samlSloPostRoute);
