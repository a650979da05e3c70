import { recordEvent, type TEventActor } from "../../audit/audit.service.ts";
import { publishClientChange } from "../../clients/client-cache.ts";
import { inTransaction, type TTx } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import { BINDING, idpEndpoint, idpEntityId } from "../metadata/idp-metadata.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { deleteSpRow, findAllSps, findSpByEntityId, findSpById, insertSp, isClientIdTaken, updateSpRow, type TServiceProvider } from "./service-providers.repository.ts";
import { publishSpChange } from "./service-providers.service.ts";
import { sourceOf, spWriteOf } from "./sp-settings.ts";
import type { TSamlSpCreate } from "./service-providers.schemas.ts";

/* The console's face of SAML service providers: the list, one provider's settings to edit, adding, saving and removing one. */

export type TSpView = Omit<TServiceProvider, "signingCerts" | "encryptionCert" | "metadataXml" | "acs" | "slo" | "attributeMap"> & {
  acsUrls: string[];
  sloUrls: string[];
  signingCerts: number;
  hasEncryptionCert: boolean;
  /** Where its endpoints and keys came from: metadata pasted, metadata fetched from metadataUrl, or typed by hand. */
  source: "metadata" | "url" | "hand";
};

const sourceKind = (sp: TServiceProvider): TSpView["source"] => (sp.metadataUrl ? "url" : sp.metadataXml ? "metadata" : "hand");

const toView = (sp: TServiceProvider): TSpView => {
  const { signingCerts, encryptionCert, metadataXml: _, attributeMap: __, acs, slo, ...rest } = sp;
  return { ...rest, acsUrls: acs.map((a) => a.location), sloUrls: slo.map((s) => s.location), signingCerts: signingCerts.length, hasEncryptionCert: encryptionCert !== null, source: sourceKind(sp) };
};

export async function listSps(): Promise<TSpView[]> {
  return (await findAllSps()).map(toView);
}

/** What an administrator of a service provider needs from us. */
export function idpSettings() {
  return { entityId: idpEntityId(), metadataUrl: idpEntityId(), ssoUrl: idpEndpoint("sso"), sloUrl: idpEndpoint("slo") };
}

/**
 * One provider's settings in the shape they are saved in: its metadata (or URL) when it came from
 * one, else what was typed by hand. Certificates are public, so they are shown in full.
 */
export async function getSpSettings(id: string): Promise<TSamlSpCreate & { enabled: boolean }> {
  const sp = await findSpById(id);
  if (!sp) throw new AppError("saml.sp_not_found");
  const kind = sourceKind(sp);
  const source =
    kind === "url"
      ? { metadataUrl: sp.metadataUrl! }
      : kind === "metadata"
        ? { metadataXml: sp.metadataXml! }
        : {
            entityId: sp.entityId,
            acsUrls: [...sp.acs].sort((a, b) => Number(b.isDefault) - Number(a.isDefault)).map((a) => a.location),
            signingCerts: sp.signingCerts,
            ...(sp.slo.find((s) => s.binding === BINDING.redirect) ? { singleLogoutUrl: sp.slo.find((s) => s.binding === BINDING.redirect)!.location } : {}),
            ...(sp.encryptionCert ? { encryptionCert: sp.encryptionCert } : {}),
          };
  return {
    id: sp.id,
    name: sp.name,
    enabled: sp.enabled,
    ...source,
    requireSignedRequests: sp.requireSignedRequests,
    nameIdFormat: sp.nameIdFormat,
    assertionEncryption: sp.assertionEncryption,
    allowIdpInitiated: sp.allowIdpInitiated,
    askConsent: sp.askConsent,
    ...(sp.defaultRelayState ? { defaultRelayState: sp.defaultRelayState } : {}),
    attributes: sp.attributeMap,
  };
}

async function afterChange(id: string): Promise<TSpView> {
  await publishSpChange();
  await publishClientChange(id);
  // Deleted by another administrator since: said so, not a 500.
  const sp = await findSpById(id);
  if (!sp) throw new AppError("saml.sp_not_found");
  return toView(sp);
}

/** A write that lost a race to another (the same id or entity ID taken meanwhile) is the same 409 as one the checks caught. */
async function inSpTransaction(write: (tx: TTx) => Promise<void>): Promise<void> {
  try {
    await inTransaction(write);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("saml.sp_exists");
    throw e;
  }
}

/** Adds a provider from its metadata or its settings by hand; refused when its id or entity ID is taken, or a setting cannot be used. */
export async function createSp(input: TSamlSpCreate, actor: TEventActor): Promise<TSpView> {
  const { id, name, ...settings } = input;
  const write = spWriteOf(id, name, settings, await sourceOf(settings));
  await inSpTransaction(async (tx) => {
    if ((await isClientIdTaken(id, tx)) || (await findSpByEntityId(write.entityId, tx))) throw new AppError("saml.sp_exists");
    await insertSp(write, tx);
  });
  await recordEvent("saml.sp_created", actor, { sp: id, entityId: write.entityId });
  return afterChange(id);
}

/**
 * Saves a provider's settings as a whole (a URL is fetched again: that is how its metadata is
 * refreshed). Its NameIDs, consents and sessions stay: they hang on its id, not its entity ID.
 */
export async function updateSp(input: TSamlSpCreate, actor: TEventActor): Promise<TSpView> {
  const { id, name, ...settings } = input;
  if (!(await findSpById(id))) throw new AppError("saml.sp_not_found");
  const write = spWriteOf(id, name, settings, await sourceOf(settings));
  await inSpTransaction(async (tx) => {
    const holder = await findSpByEntityId(write.entityId, tx);
    if (holder && holder.id !== id) throw new AppError("saml.sp_exists");
    if (!(await updateSpRow(write, tx))) throw new AppError("saml.sp_not_found");
  });
  await recordEvent("saml.sp_updated", actor, { sp: id, entityId: write.entityId });
  return afterChange(id);
}

export async function deleteSp(id: string, actor: TEventActor): Promise<void> {
  if (!(await deleteSpRow(id))) throw new AppError("saml.sp_not_found");
  await publishSpChange();
  await publishClientChange(id);
  await recordEvent("saml.sp_deleted", actor, { sp: id });
}
