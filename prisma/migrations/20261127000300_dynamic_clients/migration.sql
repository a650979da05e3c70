-- Dynamic registration of mobile application instances (RFC 7591). A configured client may let
-- instances of some software ids register; each instance is a client of its own that inherits its
-- parent's redirect URIs, user scopes and grant types, and is bound to the account that signs in
-- through it (or registers with it). An instance goes with its parent and with its account.
ALTER TABLE "clients" ADD COLUMN "dyn_software_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "clients" ADD COLUMN "parent_id" TEXT;
ALTER TABLE "clients" ADD COLUMN "software_id" TEXT;
ALTER TABLE "clients" ADD COLUMN "software_version" TEXT;
ALTER TABLE "clients" ADD COLUMN "bound_user_id" TEXT;
ALTER TABLE "clients" ADD COLUMN "bound_at" TIMESTAMPTZ(3);
ALTER TABLE "clients" ADD COLUMN "last_seen_at" TIMESTAMPTZ(3);
ALTER TABLE "clients" ADD CONSTRAINT "clients_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "clients" ADD CONSTRAINT "clients_bound_user_id_fkey" FOREIGN KEY ("bound_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "clients_bound_user_id_idx" ON "clients"("bound_user_id");
CREATE INDEX "clients_parent_id_created_at_idx" ON "clients"("parent_id", "created_at");

-- bindDynClient of a registration that waits for its contacts: bound when the account is created.
ALTER TABLE "registrations" ADD COLUMN "dyn_client_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
