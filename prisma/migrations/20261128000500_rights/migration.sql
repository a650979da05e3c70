-- Access right definitions: what a right is called, what it means (ru/en) and which kinds of subject
-- (user, application) and object (user, group, application) it may join. change_password and
-- change_attrs are built in (created at every start when missing, see server/rights/builtin-rights.ts).
CREATE TABLE "right_definitions" (
    "name" TEXT NOT NULL,
    "description_ru" TEXT NOT NULL DEFAULT '',
    "description_en" TEXT NOT NULL DEFAULT '',
    "subject_kinds" TEXT[] NOT NULL DEFAULT '{}',
    "object_kinds" TEXT[] NOT NULL DEFAULT '{}',
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "right_definitions_pkey" PRIMARY KEY ("name")
);

-- One row per tag of a granted right: a right exists while at least one of its rows does. Granting
-- inserts rows (ON CONFLICT DO NOTHING), revoking deletes the listed ones; each is one statement, so
-- parallel grants and revokes end as some serial order would, without locks.
-- subject_type: 'user' | 'its'; object_type: 'user' | 'its' | 'grps'; object_ext: a group's profile
-- ('' otherwise), kept so listings can build `grps|<id>|<profile>` without a join.
CREATE TABLE "right_grants" (
    "subject_type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "object_type" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "object_ext" TEXT NOT NULL DEFAULT '',
    "right_name" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "right_grants_pkey" PRIMARY KEY ("subject_type", "subject_id", "object_type", "object_id", "right_name", "tag"),
    CONSTRAINT "right_grants_right_name_fkey" FOREIGN KEY ("right_name") REFERENCES "right_definitions"("name") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "right_grants_subject_type_check" CHECK ("subject_type" IN ('user', 'its')),
    CONSTRAINT "right_grants_object_type_check" CHECK ("object_type" IN ('user', 'its', 'grps'))
);

-- "Rights on X" reads by object; the primary key serves "rights of X" (by subject).
CREATE INDEX "right_grants_object_type_object_id_subject_type_subject_id_idx" ON "right_grants"("object_type", "object_id", "subject_type", "subject_id");
-- Usage counts of a definition (refusing to delete one still granted).
CREATE INDEX "right_grants_right_name_idx" ON "right_grants"("right_name");

-- Subjects and objects are of several kinds, so no foreign key can reach them: a deleted account or
-- application takes its grants with it through these triggers, in the deleting transaction.
CREATE FUNCTION "right_grants_drop_of"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "right_grants" WHERE "subject_type" = TG_ARGV[0] AND "subject_id" = OLD."id";
    DELETE FROM "right_grants" WHERE "object_type" = TG_ARGV[0] AND "object_id" = OLD."id";
    RETURN OLD;
END;
$$;
CREATE TRIGGER "users_drop_right_grants" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "right_grants_drop_of"('user');
CREATE TRIGGER "clients_drop_right_grants" AFTER DELETE ON "clients" FOR EACH ROW EXECUTE FUNCTION "right_grants_drop_of"('its');
