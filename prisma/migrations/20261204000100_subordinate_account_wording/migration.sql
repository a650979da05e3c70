-- The English descriptions of the two built-in rights say "subordinate account" instead of "slave
-- account". Only a description still as the service wrote it is changed: an administrator's own
-- wording stays.
UPDATE "right_definitions" SET "description_en" = 'Change the password of a subordinate account'
  WHERE "name" = 'change_password' AND "builtin" AND "description_en" = 'Change the password of a slave account';
UPDATE "right_definitions" SET "description_en" = 'Change the attributes of a subordinate account'
  WHERE "name" = 'change_attrs' AND "builtin" AND "description_en" = 'Change the attributes of a slave account';
