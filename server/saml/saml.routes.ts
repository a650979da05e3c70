import { defineRoute } from "../caller/define-route.ts";
import { Answer } from "../http/exchange.ts";
import { idpMetadataXml } from "./metadata/idp-metadata.ts";
import { samlSloGetRoute, samlSloPostRoute } from "./slo/slo.routes.ts";
import { samlSsoGetRoute, samlSsoPostRoute } from "./sso/sso.routes.ts";

export const samlMetadataRoute = defineRoute(
  {
    method: "GET",
    path: "/saml/metadata",
    summary: "SAML 2.0 identity provider metadata (signed)",
    description:
      "The SAML 2.0 metadata of this identity provider (application/samlmetadata+xml): its entity ID (this URL), the certificates that sign for it " +
      "(the key in force, one waiting to sign after a rotation, one recently retired), its single sign-on and single logout endpoints " +
      "for the HTTP-Redirect and HTTP-POST bindings and the NameID formats it issues. The document is signed (RSA-SHA256, exclusive canonicalisation) " +
      "with the key in force, so a copy fetched over an untrusted network can be checked against a certificate the service provider holds.",
    tags: ["SAML 2.0"],
    auth: { kind: "none" },
    response: { status: 200, description: "The signed EntityDescriptor (application/samlmetadata+xml)" },
    errors: [],
  },
  // Cached briefly, like the JWKS: a rotated-in certificate is published long before it signs.
  async () => new Answer(200, { "content-type": "application/samlmetadata+xml; charset=utf-8", "cache-control": "public, max-age=300" }, await idpMetadataXml()),
);

export const SAML_ROUTES = [samlMetadataRoute, samlSsoGetRoute, samlSsoPostRoute, samlSloGetRoute, samlSloPostRoute];
