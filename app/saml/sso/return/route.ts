// GET /saml/sso/return?flow=… – after the sign-in pages: the signed SAML response, posted to the service provider
import { samlSsoReturnPage } from "@/server/saml/sso/sso.pages";

export const GET = samlSsoReturnPage;
