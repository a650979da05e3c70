-- The RSA keys (with their certificates) that sign what the SAML identity provider sends.
CREATE TABLE "saml_signing_keys" (
    "kid" TEXT NOT NULL,
    "certificate_pem" TEXT NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "signs_from" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),
    CONSTRAINT "saml_signing_keys_pkey" PRIMARY KEY ("kid")
);
