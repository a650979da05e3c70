// GET /saml/sso/continue?r=… – a SAML request that came by HTTP-POST, continued with the browser's cookies
import { samlSsoContinuePage } from "@/server/saml/sso/sso.pages";

export const GET = samlSsoContinuePage;
