-- Clients for end-user sign-in: confidential or public (a public client has no secret and must use
-- PKCE), first-party (no consent screen), the grant types each may use, where logout may return to,
-- and per-client token lifetimes. Existing clients keep what they could do: client_credentials.
ALTER TABLE "clients" ALTER COLUMN "secret_hash" DROP NOT NULL;
ALTER TABLE "clients" ADD COLUMN "type" TEXT NOT NULL DEFAULT 'confidential';
ALTER TABLE "clients" ADD COLUMN "first_party" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "clients" ADD COLUMN "grant_types" TEXT[] NOT NULL DEFAULT ARRAY['client_credentials']::TEXT[];
ALTER TABLE "clients" ADD COLUMN "post_logout_redirect_uris" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "clients" ADD COLUMN "access_token_ttl" INTEGER;
ALTER TABLE "clients" ADD COLUMN "refresh_token_ttl" INTEGER;
ALTER TABLE "clients" ADD COLUMN "id_token_ttl" INTEGER;
