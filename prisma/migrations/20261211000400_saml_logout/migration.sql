-- Single logout: the service providers each browser session signed in to, and logouts in progress.
CREATE TABLE "saml_participants" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "sp_id" TEXT NOT NULL,
    "name_id" TEXT NOT NULL,
    "name_id_format" TEXT NOT NULL,
    "session_index" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "saml_participants_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "saml_participants_session_index_key" ON "saml_participants"("session_index");
CREATE UNIQUE INDEX "saml_participants_session_id_sp_id_key" ON "saml_participants"("session_id", "sp_id");
ALTER TABLE "saml_participants" ADD CONSTRAINT "saml_participants_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "browser_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "saml_participants" ADD CONSTRAINT "saml_participants_sp_id_fkey" FOREIGN KEY ("sp_id") REFERENCES "saml_service_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "saml_logouts" (
    "handle_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "origin_sp_id" TEXT,
    "origin_request_id" TEXT,
    "origin_relay_state" TEXT,
    "return_to" TEXT,
    "hops" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "saml_logouts_pkey" PRIMARY KEY ("handle_hash")
);
CREATE INDEX "saml_logouts_expires_at_idx" ON "saml_logouts"("expires_at");
