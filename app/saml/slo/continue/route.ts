// GET /saml/slo/continue?r=… – a SAML logout request that came by HTTP-POST, acted on with the browser's cookies
import { samlSloContinuePage } from "@/server/saml/sso/sso.pages";

export const GET = samlSloContinuePage;
