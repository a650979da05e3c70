-- Password changes of a directory's accounts: refused (off), written when the person proves the
-- current password (self), or also an administrator's reset with the service's bind (self_and_reset).
ALTER TABLE "directories" ADD COLUMN "password_change" TEXT NOT NULL DEFAULT 'off';
-- How a password is written: the LDAP Password Modify operation (RFC 3062) or Active Directory's unicodePwd.
ALTER TABLE "directories" ADD COLUMN "password_protocol" TEXT NOT NULL DEFAULT 'rfc3062';
