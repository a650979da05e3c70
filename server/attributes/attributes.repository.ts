import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TAttributeDef, TAttributeScope } from "./attributes.schemas.ts";

const DEF = {
  name: true,
  type: true,
  required: true,
  unique: true,
  unmodifiable: true,
  searchable: true,
  validators: true,
  aliases: true,
  position: true,
  builtin: true,
} as const;

export type TAttributeRow = Omit<TAttributeDef, "validators" | "type"> & {
  type: string;
  validators: Prisma.JsonValue;
  position: number;
  builtin: boolean;
};

export async function findAllAttributes(tx?: TTx): Promise<TAttributeRow[]> {
  const db = tx ?? (await getPrisma());
  return db.attribute.findMany({ orderBy: [{ position: "asc" }, { name: "asc" }], select: DEF });
}

export async function upsertAttribute(def: TAttributeDef, position: number, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  const data = { ...def, validators: def.validators as Prisma.InputJsonObject };
  await db.attribute.upsert({ where: { name: def.name }, create: { ...data, position }, update: data, select: { name: true } });
}

export async function deleteAttributeRow(name: string, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  await db.attribute.delete({ where: { name }, select: { name: true } });
}


export async function findSelections(clientId: string): Promise<{ scope: string; attributes: string[] }[]> {
  const prisma = await getPrisma();
  return prisma.clientAttributeSelection.findMany({ where: { clientId }, select: { scope: true, attributes: true } });
}

export async function saveSelection(clientId: string, scope: TAttributeScope, attributes: string[] | null, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  if (attributes === null) {
    await db.clientAttributeSelection.deleteMany({ where: { clientId, scope } });
    return;
  }
  await db.clientAttributeSelection.upsert({
    where: { clientId_scope: { clientId, scope } },
    create: { clientId, scope, attributes },
    update: { attributes },
    select: { scope: true },
  });
}
