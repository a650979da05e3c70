// GET|POST /saml/sso – SAML single sign-on service (HTTP-Redirect and HTTP-POST bindings)
import { samlSsoGetRoute, samlSsoPostRoute } from "@/server/saml/sso/sso.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = samlSsoGetRoute;
export const POST = samlSsoPostRoute;
export const { PUT, PATCH, DELETE } = otherMethods(samlSsoGetRoute, samlSsoPostRoute);
