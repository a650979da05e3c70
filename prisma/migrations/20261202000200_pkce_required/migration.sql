-- PKCE is required of every client (RFC 9700); a confidential client that cannot send it is let off
-- explicitly. Existing clients are not let off: an old one that breaks is named in the upgrade notes.
ALTER TABLE "clients" ADD COLUMN "pkce_optional" BOOLEAN NOT NULL DEFAULT false;
