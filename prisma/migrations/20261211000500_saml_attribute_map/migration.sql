-- The attributes each SAML service provider is sent, from the catalog, the groups or the rights.
ALTER TABLE "saml_service_providers" ADD COLUMN "attribute_map" JSONB NOT NULL DEFAULT '[]';
