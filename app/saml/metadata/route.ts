// GET /saml/metadata – the SAML identity provider's signed metadata
import { samlMetadataRoute } from "@/server/saml/saml.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = samlMetadataRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(samlMetadataRoute);
