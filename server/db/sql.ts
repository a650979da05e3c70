import { Prisma } from "./generated/client.ts";

/**
 * Prisma's SQL template tag, for code that builds query fragments without running them (the RQL
 * compiler). A fragment keeps its values apart from its text, so they travel as bound parameters to
 * the repository's $queryRaw; running SQL stays in repositories.
 */
export type TSql = Prisma.Sql;
export const sql = Prisma.sql;
export const joinSql = Prisma.join;
