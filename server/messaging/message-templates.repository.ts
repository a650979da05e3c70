import { getPrisma, type TTx } from "../db/index.ts";

export type TTemplateRow = { template: string; channel: string; locale: string; subject: string | null; body: string; updatedAt: Date };

type TTemplateKey = { template: string; channel: string; locale: string };

/** Every rewritten text (a few dozen at most). */
export async function findTemplateRows(): Promise<TTemplateRow[]> {
  const prisma = await getPrisma();
  return prisma.messageTemplate.findMany();
}

/**
 * The rewritten text of one template, read in the transaction that writes the message: one lookup
 * by primary key next to the message's own insert, and never a stale copy.
 */
export async function findTemplateRow(tx: TTx, key: TTemplateKey): Promise<{ subject: string | null; body: string } | null> {
  return tx.messageTemplate.findUnique({ where: { template_channel_locale: key }, select: { subject: true, body: true } });
}

export async function upsertTemplateRow(row: Omit<TTemplateRow, "updatedAt">): Promise<void> {
  const prisma = await getPrisma();
  const { template, channel, locale } = row;
  await prisma.messageTemplate.upsert({
    where: { template_channel_locale: { template, channel, locale } },
    create: row,
    update: { subject: row.subject, body: row.body },
    select: { template: true },
  });
}

/** False when there was no rewritten text to remove. */
export async function deleteTemplateRow(key: TTemplateKey): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.messageTemplate.deleteMany({ where: key })).count === 1;
}
