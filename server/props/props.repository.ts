import { getPrisma } from "../db/index.ts";
import type { TProps } from "./props.schemas.ts";

export async function findProps(userId: string): Promise<TProps> {
  const prisma = await getPrisma();
  const row = await prisma.userProps.findUnique({ where: { userId }, select: { props: true } });
  return (row?.props ?? {}) as TProps;
}

/**
 * Applies a change in one statement: `remove` first, then `add`, merged by PostgreSQL on the row it
 * holds locked, so parallel changes of one account never lose each other's properties. The change is
 * applied only while the result has at most `maxCount` properties; null when it would have more.
 */
export async function applyPropsChange(userId: string, add: TProps, remove: string[], maxCount: number): Promise<TProps | null> {
  const prisma = await getPrisma();
  const addJson = JSON.stringify(add);
  const rows = await prisma.$queryRaw<{ props: TProps }[]>`
    INSERT INTO user_props AS p (user_id, props, updated_at)
    SELECT ${userId}, ${addJson}::jsonb, now()
    WHERE (SELECT count(*) FROM jsonb_object_keys(${addJson}::jsonb)) <= ${maxCount}
    ON CONFLICT (user_id) DO UPDATE SET props = (p.props - ${remove}::text[]) || ${addJson}::jsonb, updated_at = now()
    WHERE (SELECT count(*) FROM jsonb_object_keys((p.props - ${remove}::text[]) || ${addJson}::jsonb)) <= ${maxCount}
    RETURNING p.props`;
  return rows[0]?.props ?? null;
}
