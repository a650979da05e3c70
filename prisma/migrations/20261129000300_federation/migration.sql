-- External identity providers (issue 9, slice 1): the providers an account can be bound to, and the
-- bindings. A provider is named by (fp_type, fp_name); its client secret is sealed (AES-256-GCM with
-- the federation-secrets key, server/crypto/sealing.ts), never stored in the clear.
CREATE TABLE "federation_providers" (
    "fp_type" TEXT NOT NULL,
    "fp_name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT,
    "discovery_url" TEXT,
    "authorization_endpoint" TEXT,
    "token_endpoint" TEXT,
    "userinfo_endpoint" TEXT,
    "jwks_uri" TEXT,
    "issuer" TEXT,
    "scopes" TEXT[] NOT NULL DEFAULT '{}',
    "sid_claim" TEXT NOT NULL DEFAULT 'sub',
    "user_name_claim" TEXT NOT NULL DEFAULT 'preferred_username',
    "offered_at_sign_in" BOOLEAN NOT NULL DEFAULT false,
    "remember_tokens" BOOLEAN NOT NULL DEFAULT false,
    "min_token_life_s" INTEGER NOT NULL DEFAULT 30,
    "allow_registration" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "federation_providers_pkey" PRIMARY KEY ("fp_type", "fp_name"),
    CONSTRAINT "federation_providers_fp_type_check" CHECK ("fp_type" IN ('oidc', 'oauth2'))
);

-- One row per bound external account. The primary key (provider, sid) is what makes one external
-- account bind to one user only: of two parallel binds of a sid, the second conflicts on it. The row
-- goes with its account (users FK) and with its provider (a provider is deleted while bound only
-- when forced, see server/federation/providers.service.ts).
CREATE TABLE "federated_accounts" (
    "fp_type" TEXT NOT NULL,
    "fp_name" TEXT NOT NULL,
    "sid" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "federated_accounts_pkey" PRIMARY KEY ("fp_type", "fp_name", "sid"),
    CONSTRAINT "federated_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "federated_accounts_provider_fkey" FOREIGN KEY ("fp_type", "fp_name") REFERENCES "federation_providers"("fp_type", "fp_name") ON DELETE CASCADE ON UPDATE CASCADE
);
-- GET …/users/{subjectId}/fa reads by account.
CREATE INDEX "federated_accounts_user_id_idx" ON "federated_accounts"("user_id");
