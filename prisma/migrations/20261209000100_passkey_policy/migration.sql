-- The passkey policy set in the console or the import document, and the FIDO metadata uploaded for it.
CREATE TABLE "passkey_policies" (
    "id" TEXT NOT NULL,
    "policy" JSONB NOT NULL,
    "metadata" JSONB,
    "metadata_updated_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "passkey_policies_pkey" PRIMARY KEY ("id")
);
