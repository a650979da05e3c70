-- End-user sign-in: flows in progress, browser sessions, the devices they come from, and the
-- counters of failed attempts that throttle password guessing.

CREATE TABLE "login_flows" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "step" TEXT NOT NULL DEFAULT 'credentials',
    "csrf_hash" TEXT NOT NULL,
    "user_id" TEXT,
    "session_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "login_flows_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "login_flows_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "login_flows_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "login_flows_expires_at_idx" ON "login_flows"("expires_at");

CREATE TABLE "devices" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "user_agent" TEXT,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_ip" TEXT,
    CONSTRAINT "devices_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "devices_user_id_key_hash_key" ON "devices"("user_id", "key_hash");

CREATE TABLE "browser_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "device_id" TEXT,
    "auth_time" TIMESTAMPTZ(3) NOT NULL,
    "amr" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "browser_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "browser_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "browser_sessions_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "browser_sessions_token_hash_key" ON "browser_sessions"("token_hash");
CREATE INDEX "browser_sessions_user_id_idx" ON "browser_sessions"("user_id");
CREATE INDEX "browser_sessions_expires_at_idx" ON "browser_sessions"("expires_at");

-- One row per account (or unknown identifier) and per IP; the row lock is what makes parallel
-- attempts count one after another.
CREATE TABLE "sign_in_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "level" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "window_failures" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "sign_in_throttles_updated_at_idx" ON "sign_in_throttles"("updated_at");
