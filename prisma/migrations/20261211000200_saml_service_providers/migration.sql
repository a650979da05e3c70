-- SAML service providers (each with its row in clients), the request IDs they used, requests that
-- came by HTTP-POST waiting for the browser's GET, and the persistent NameIDs given to them.
ALTER TABLE "clients" ADD COLUMN "protocol" TEXT NOT NULL DEFAULT 'oidc';

CREATE TABLE "saml_service_providers" (
    "id" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "acs" JSONB NOT NULL,
    "slo" JSONB NOT NULL DEFAULT '[]',
    "signing_certs" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "encryption_cert" TEXT,
    "require_signed_requests" BOOLEAN NOT NULL DEFAULT true,
    "name_id_format" TEXT NOT NULL DEFAULT 'persistent',
    "metadata_xml" TEXT,
    "metadata_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "saml_service_providers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "saml_service_providers_entity_id_key" ON "saml_service_providers"("entity_id");
ALTER TABLE "saml_service_providers" ADD CONSTRAINT "saml_service_providers_id_fkey" FOREIGN KEY ("id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "saml_request_ids" (
    "sp_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "saml_request_ids_pkey" PRIMARY KEY ("sp_id","request_id")
);
CREATE INDEX "saml_request_ids_expires_at_idx" ON "saml_request_ids"("expires_at");

CREATE TABLE "saml_pending_requests" (
    "handle_hash" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "saml_pending_requests_pkey" PRIMARY KEY ("handle_hash")
);
CREATE INDEX "saml_pending_requests_expires_at_idx" ON "saml_pending_requests"("expires_at");

CREATE TABLE "saml_persistent_ids" (
    "sp_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    CONSTRAINT "saml_persistent_ids_pkey" PRIMARY KEY ("sp_id","user_id")
);
CREATE UNIQUE INDEX "saml_persistent_ids_sp_id_value_key" ON "saml_persistent_ids"("sp_id", "value");
ALTER TABLE "saml_request_ids" ADD CONSTRAINT "saml_request_ids_sp_id_fkey" FOREIGN KEY ("sp_id") REFERENCES "saml_service_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "saml_persistent_ids" ADD CONSTRAINT "saml_persistent_ids_sp_id_fkey" FOREIGN KEY ("sp_id") REFERENCES "saml_service_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "saml_persistent_ids" ADD CONSTRAINT "saml_persistent_ids_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
