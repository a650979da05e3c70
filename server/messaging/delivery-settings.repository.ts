import { getPrisma } from "../db/index.ts";

const SETTINGS_ID = "default";

/** The console's delivery settings as stored: secrets still sealed. */
export type TStoredDelivery = {
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecurity: string | null;
  smtpUsername: string | null;
  smtpPassword: string | null;
  mailFrom: string | null;
  smsWebhookUrl: string | null;
  smsWebhookToken: string | null;
};

const COLUMNS = { smtpHost: true, smtpPort: true, smtpSecurity: true, smtpUsername: true, smtpPassword: true, mailFrom: true, smsWebhookUrl: true, smsWebhookToken: true } as const;

export async function findDeliverySettings(): Promise<TStoredDelivery | null> {
  const prisma = await getPrisma();
  return prisma.deliverySettings.findUnique({ where: { id: SETTINGS_ID }, select: COLUMNS });
}

/** Writes the given columns (null clears one), creating the row on first use. */
export async function updateDeliverySettings(data: Partial<TStoredDelivery>): Promise<void> {
  const prisma = await getPrisma();
  await prisma.deliverySettings.upsert({ where: { id: SETTINGS_ID }, create: { id: SETTINGS_ID, ...data }, update: data, select: { id: true } });
}
