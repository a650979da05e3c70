-- Whether a SAML service provider's assertions are encrypted to its certificate (and with which
-- cipher), and whether people may start a sign-in to it from here (IdP-initiated), landing where.
ALTER TABLE "saml_service_providers" ADD COLUMN "assertion_encryption" TEXT NOT NULL DEFAULT 'off';
ALTER TABLE "saml_service_providers" ADD COLUMN "allow_idp_initiated" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "saml_service_providers" ADD COLUMN "default_relay_state" TEXT;
