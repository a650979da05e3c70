-- One-time passwords and authentication modes (issue 7). Seeds are sealed (AES-256-GCM with the
-- otp-seeds key); a TOTP generator keeps the last accepted time step so a code works once; an HOTP
-- generator keeps the counter its next code is expected at.

CREATE TABLE "otp_generators" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "algo" TEXT NOT NULL,
    "digits" INTEGER NOT NULL,
    "period" INTEGER,
    "counter" BIGINT,
    "last_step" BIGINT,
    "device_serial" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "otp_generators_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "otp_generators_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "otp_generators_device_serial_key" ON "otp_generators"("device_serial");
CREATE INDEX "otp_generators_user_id_idx" ON "otp_generators"("user_id");

CREATE TABLE "otp_pending_secrets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "otp_pending_secrets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "otp_pending_secrets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "otp_pending_secrets_user_id_idx" ON "otp_pending_secrets"("user_id");

CREATE TABLE "otp_devices" (
    "serial" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "algo" TEXT NOT NULL,
    "digits" INTEGER NOT NULL,
    "counter" BIGINT,
    "period" INTEGER,
    "source" TEXT NOT NULL,
    "bound_to" TEXT,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "otp_devices_pkey" PRIMARY KEY ("serial"),
    CONSTRAINT "otp_devices_bound_to_fkey" FOREIGN KEY ("bound_to") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "otp_devices_bound_to_idx" ON "otp_devices"("bound_to");

CREATE TABLE "user_auth_modes" (
    "user_id" TEXT NOT NULL,
    "second_factor" BOOLEAN NOT NULL DEFAULT false,
    "need_password_change" BOOLEAN NOT NULL DEFAULT false,
    "methods_locked" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_auth_modes_pkey" PRIMARY KEY ("user_id"),
    CONSTRAINT "user_auth_modes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
