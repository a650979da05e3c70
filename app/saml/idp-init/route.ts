// GET /saml/idp-init?sp=… – a sign-in to a SAML application started here (IdP-initiated)
import { samlIdpInitiatedPage } from "@/server/saml/sso/sso.pages";

export const GET = samlIdpInitiatedPage;
