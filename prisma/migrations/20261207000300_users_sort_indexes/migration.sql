-- The console's users list sorts by login, name, e-mail, creation time and state, and pages each
-- order by keyset over (key, id): one index per order makes any page a short index scan, forward for
-- ascending and backward for descending, at 100,000 accounts or a million. The expressions must
-- stay word for word those of server/users/users-console.repository.ts (KEYS), or the planner cannot
-- match them. Texts compare lower-cased in "C" order, so every database agrees on the order whatever
-- its default collation. Prisma's schema cannot declare expression indexes: they live here only, as
-- the trigram index of user_attr_values does.
CREATE INDEX "users_login_sort_idx" ON "users"(("login" COLLATE "C"), "id");
CREATE INDEX "users_name_sort_idx" ON "users"((NULLIF(lower(COALESCE("attrs" ->> 'family_name', '') || ' ' || COALESCE("attrs" ->> 'given_name', '')), ' ') COLLATE "C"), "id");
CREATE INDEX "users_email_sort_idx" ON "users"((lower("attrs" #>> '{email,value}') COLLATE "C"), "id");
CREATE INDEX "users_created_sort_idx" ON "users"("created_at", "id");
CREATE INDEX "users_status_sort_idx" ON "users"("locked", "id");
