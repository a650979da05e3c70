-- Accounts: the attribute catalog, per-client attribute selections, attribute values on accounts,
-- the value index that enforces uniqueness and serves searches, and confirmation codes.

-- Trigram indexes serve v1 mask searches (`*` anywhere in the value) without a table scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE "attributes" (
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "unique" BOOLEAN NOT NULL DEFAULT false,
    "unmodifiable" BOOLEAN NOT NULL DEFAULT false,
    "searchable" BOOLEAN NOT NULL DEFAULT false,
    "validators" JSONB NOT NULL DEFAULT '{}',
    "aliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "position" INTEGER NOT NULL DEFAULT 0,
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "attributes_pkey" PRIMARY KEY ("name")
);

-- The default catalog: what the contract names, with the v1 aliases so v1 clients work at once.
INSERT INTO "attributes" ("name", "type", "required", "unique", "unmodifiable", "searchable", "validators", "aliases", "position", "builtin") VALUES
    ('sub',          'string',  true,  true,  true,  true,  '{"maxLength":128,"pattern":"^[A-Za-z0-9][A-Za-z0-9._@+-]*$"}', ARRAY['uid'],             0, true),
    ('family_name',  'string',  false, false, false, true,  '{"maxLength":200}', ARRAY['surname'],         1, true),
    ('given_name',   'string',  false, false, false, true,  '{"maxLength":200}', ARRAY['name'],            2, true),
    ('middle_name',  'string',  false, false, false, true,  '{"maxLength":200}', ARRAY[]::TEXT[],          3, true),
    ('locked',       'boolean', false, false, false, false, '{}',                ARRAY[]::TEXT[],          4, true),
    ('phone_number', 'phone',   false, true,  false, true,  '{}',                ARRAY['personal_mobile'], 5, true),
    ('email',        'email',   false, true,  false, true,  '{}',                ARRAY['personal_mail'],   6, true);

-- Which attributes a client may read or change, per attribute scope. No row: all attributes.
CREATE TABLE "client_attribute_selections" (
    "client_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "attributes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    CONSTRAINT "client_attribute_selections_pkey" PRIMARY KEY ("client_id", "scope"),
    CONSTRAINT "client_attribute_selections_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Accounts keep their catalog attributes in one document; `sub` is the id and `locked` the column.
ALTER TABLE "users" ALTER COLUMN "login" DROP NOT NULL;
ALTER TABLE "users" ADD COLUMN "attrs" JSONB NOT NULL DEFAULT '{}';

-- Searchable and unique attribute values, normalised (lower-cased text, 7XXXXXXXXXX phones), one row
-- per value. The partial unique index is what makes "unique" hold under concurrent writers.
CREATE TABLE "user_attr_values" (
    "user_id" TEXT NOT NULL,
    "attr" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "is_unique" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "user_attr_values_pkey" PRIMARY KEY ("user_id", "attr", "value"),
    CONSTRAINT "user_attr_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "user_attr_values_unique_key" ON "user_attr_values"("attr", "value") WHERE "is_unique";
CREATE INDEX "user_attr_values_attr_value_idx" ON "user_attr_values"("attr", "value" text_pattern_ops);
CREATE INDEX "user_attr_values_value_trgm_idx" ON "user_attr_values" USING GIN ("value" gin_trgm_ops);

-- A code sent to a contact: for a change of an account's phone or e-mail, or for a registration.
-- Only a keyed hash of the code is kept.
CREATE TABLE "confirmations" (
    "state" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "user_id" TEXT,
    "registration_id" TEXT,
    "attr" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "old_value" TEXT,
    "code_hash" TEXT NOT NULL,
    "attempts_left" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'code_waiting',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "resend_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "confirmations_pkey" PRIMARY KEY ("state"),
    CONSTRAINT "confirmations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "confirmations_user_id_idx" ON "confirmations"("user_id");
CREATE INDEX "confirmations_registration_id_idx" ON "confirmations"("registration_id");

-- Accounts created before the catalog: version ids in the current form (<base64url(sub)>.<random>),
-- and their sub in the value index.
UPDATE "users" SET "instance_id" =
    rtrim(translate(encode(convert_to("id", 'UTF8'), 'base64'), E'+/\n', '-_'), '=') || '.' || substr(md5(random()::text), 1, 16);
INSERT INTO "user_attr_values" ("user_id", "attr", "value", "is_unique") SELECT "id", 'sub', lower("id"), true FROM "users";

-- A registration waiting for its contacts' codes (or, when accounts are created at once, the
-- confirmations still open for one). `attrs` holds the normalised attributes as they will be stored.
CREATE TABLE "registrations" (
    "context" TEXT NOT NULL,
    "attrs" JSONB NOT NULL,
    "sub" TEXT NOT NULL,
    "password_hash" TEXT,
    "client_id" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "user_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "registrations_pkey" PRIMARY KEY ("context"),
    CONSTRAINT "registrations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "registrations_expires_at_idx" ON "registrations"("expires_at");
ALTER TABLE "confirmations" ADD CONSTRAINT "confirmations_registration_id_fkey" FOREIGN KEY ("registration_id") REFERENCES "registrations"("context") ON DELETE CASCADE ON UPDATE CASCADE;
