-- The console's events page filters the whole trail by client and by address, and lists it newest
-- first without any filter; each is a keyset scan over (…, created_at) like the per-subject index.

CREATE INDEX "security_events_client_id_created_at_idx" ON "security_events"("client_id", "created_at");
CREATE INDEX "security_events_ip_created_at_idx" ON "security_events"("ip", "created_at");
CREATE INDEX "security_events_created_at_id_idx" ON "security_events"("created_at", "id");
