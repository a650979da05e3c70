-- Attributes a directory keeps for an account: read-only in the console, the portal and the API.
-- On the users row itself, so the account read (one statement on every cache miss) carries them.
ALTER TABLE "users" ADD COLUMN "owned_attrs" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
