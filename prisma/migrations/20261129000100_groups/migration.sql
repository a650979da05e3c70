-- Group profiles (`orgs`, `departments` …): each names the attributes its groups carry. `attributes`
-- is the schema, an array of {name, type, required, unique?, maxLength?} (server/groups/groups.schemas.ts);
-- `description` is {ru, en}. Profiles come from the import file (the console later); none is built in.
CREATE TABLE "group_profiles" (
    "name" TEXT NOT NULL,
    "description" JSONB NOT NULL DEFAULT '{}',
    "attributes" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "group_profiles_pkey" PRIMARY KEY ("name")
);

-- A group: its id is global (GET /api/v3/groups/{id} names no profile), its profile says which
-- attributes it has. instance_id is the version of its attributes (optimistic concurrency, as an
-- account's): membership changes do not bump it. A profile with groups cannot be deleted.
CREATE TABLE "groups" (
    "id" TEXT NOT NULL,
    "profile" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "attrs" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "groups_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "groups_profile_fkey" FOREIGN KEY ("profile") REFERENCES "group_profiles"("name") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "groups_profile_idx" ON "groups"("profile");
-- For searches over attributes (RQL `eq` and `in` compile to containment, which jsonb_path_ops serves).
CREATE INDEX "groups_attrs_idx" ON "groups" USING GIN ("attrs" jsonb_path_ops);

-- Members are accounts; a deleted group or account takes its memberships with it.
CREATE TABLE "group_members" (
    "group_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "group_members_pkey" PRIMARY KEY ("group_id", "user_id"),
    CONSTRAINT "group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- "The groups of a user"; the primary key serves "the members of a group".
CREATE INDEX "group_members_user_id_idx" ON "group_members"("user_id");

-- Rights on a group (object_type 'grps') go with it, in the deleting transaction, like those of a
-- deleted account or application (right_grants_drop_of, rights migration).
CREATE TRIGGER "groups_drop_right_grants" AFTER DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION "right_grants_drop_of"('grps');
