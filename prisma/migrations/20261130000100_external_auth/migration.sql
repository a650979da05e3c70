-- External providers' redirect flow and stored external tokens (issue 9, slice 2).

-- An authorization request sent to an external provider, waiting for the browser to come back to
-- {ctx}/fa/callback. Only a hash of `state` is kept (the state travels in URLs; its hash cannot be
-- replayed); the PKCE verifier is sealed. A row is consumed (deleted) by the one callback that uses it.
-- A row with awaiting_session is the v2 binding's handle: it becomes a request only once the browser
-- proves whose it is (server/federation/external-auth/bind-flow.service.ts).
CREATE TABLE "external_auth_requests" (
    "state_hash" TEXT NOT NULL,
    "fp_type" TEXT NOT NULL,
    "fp_name" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "user_id" TEXT,
    "flow_id" TEXT,
    "client_id" TEXT,
    "return_to" TEXT,
    "is_popup" BOOLEAN NOT NULL DEFAULT false,
    "awaiting_session" BOOLEAN NOT NULL DEFAULT false,
    "nonce" TEXT,
    "code_verifier" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "external_auth_requests_pkey" PRIMARY KEY ("state_hash"),
    CONSTRAINT "external_auth_requests_purpose_check" CHECK ("purpose" IN ('bind', 'login')),
    CONSTRAINT "external_auth_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "external_auth_requests_provider_fkey" FOREIGN KEY ("fp_type", "fp_name") REFERENCES "federation_providers"("fp_type", "fp_name") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Expired requests are swept by age.
CREATE INDEX "external_auth_requests_expires_at_idx" ON "external_auth_requests"("expires_at");

-- The provider's tokens of a bound external account, sealed (AES-256-GCM, federation-tokens key).
-- Keyed by the binding: unbinding (or deleting the account or the provider) deletes them with it, in
-- the same statement. refreshing_until is a lease: the one process refreshing a stale token holds it,
-- so two processes never spend one refresh token twice.
CREATE TABLE "external_tokens" (
    "fp_type" TEXT NOT NULL,
    "fp_name" TEXT NOT NULL,
    "sid" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "access_token" TEXT NOT NULL,
    "refresh_token" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "refreshing_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "external_tokens_pkey" PRIMARY KEY ("fp_type", "fp_name", "sid"),
    CONSTRAINT "external_tokens_binding_fkey" FOREIGN KEY ("fp_type", "fp_name", "sid") REFERENCES "federated_accounts"("fp_type", "fp_name", "sid") ON DELETE CASCADE ON UPDATE CASCADE
);
-- GET …/fedToken reads the user's tokens of one provider.
CREATE INDEX "external_tokens_user_id_fp_type_fp_name_idx" ON "external_tokens"("user_id", "fp_type", "fp_name");
