import { recordEvent, type TEventActor } from "../../audit/audit.service.ts";
import { publishClientChange } from "../../clients/client-cache.ts";
import { inTransaction } from "../../db/index.ts";
import { AppError } from "../../errors/app-error.ts";
import { idpEndpoint, idpEntityId } from "../metadata/idp-metadata.ts";
import { deleteSpRow, findAllSps, findSpByEntityId, isClientIdTaken, upsertSp, type TServiceProvider } from "./service-providers.repository.ts";
import { publishSpChange } from "./service-providers.service.ts";
import { parseSpMetadata } from "./sp-metadata.ts";
import { fetchSpMetadata } from "./sp-metadata-fetch.ts";
import type { TSamlSpCreate } from "./service-providers.schemas.ts";

/* The console's face of SAML service providers: what the list shows, adding one from its metadata, removing one. */

export type TSpView = Omit<TServiceProvider, "signingCerts" | "encryptionCert" | "metadataXml" | "acs" | "slo" | "attributeMap"> & {
  acsUrls: string[];
  sloUrls: string[];
  signingCerts: number;
  hasEncryptionCert: boolean;
};

const toView = ({ signingCerts, encryptionCert, metadataXml: _, attributeMap: __, acs, slo, ...sp }: TServiceProvider): TSpView => ({
  ...sp,
  acsUrls: acs.map((a) => a.location),
  sloUrls: slo.map((s) => s.location),
  signingCerts: signingCerts.length,
  hasEncryptionCert: encryptionCert !== null,
});

export async function listSps(): Promise<TSpView[]> {
  return (await findAllSps()).map(toView);
}

/** What a service provider's administrator needs from us. */
export function idpSettings() {
  return { entityId: idpEntityId(), metadataUrl: idpEntityId(), ssoUrl: idpEndpoint("sso"), sloUrl: idpEndpoint("slo") };
}

/** Adds a provider from its metadata; refused when its id or entity ID is taken, or the metadata cannot be used. */
export async function createSpFromMetadata(input: TSamlSpCreate, actor: TEventActor): Promise<TSpView> {
  const xml = input.metadataUrl !== undefined ? await fetchSpMetadata(input.metadataUrl) : input.metadataXml!;
  const md = parseSpMetadata(xml);
  if (input.requireSignedRequests && !md.signingCerts.length) {
    throw new AppError("saml.metadata_invalid", { desc: "the metadata gives no signing certificate, so its requests cannot be checked: turn off \"requests must be signed\" to accept unsigned ones" });
  }
  await inTransaction(async (tx) => {
    if ((await isClientIdTaken(input.id, tx)) || (await findSpByEntityId(md.entityId, tx))) throw new AppError("saml.sp_exists");
    await upsertSp(
      {
        id: input.id,
        name: input.name,
        entityId: md.entityId,
        acs: md.acs,
        slo: md.slo,
        signingCerts: md.signingCerts,
        encryptionCert: md.encryptionCert ?? null,
        assertionEncryption: md.assertionCipher ?? "off",
        requireSignedRequests: input.requireSignedRequests,
        nameIdFormat: md.nameIdFormat ?? "persistent",
        allowIdpInitiated: input.allowIdpInitiated,
        defaultRelayState: null,
        attributeMap: [],
        metadataXml: xml,
        metadataUrl: input.metadataUrl ?? null,
      },
      tx,
    );
  });
  await publishSpChange();
  await publishClientChange(input.id);
  await recordEvent("saml.sp_created", actor, { sp: input.id, entityId: md.entityId });
  const created = (await findAllSps()).find((sp) => sp.id === input.id);
  return toView(created!);
}

export async function deleteSp(id: string, actor: TEventActor): Promise<void> {
  if (!(await deleteSpRow(id))) throw new AppError("saml.sp_not_found");
  await publishSpChange();
  await publishClientChange(id);
  await recordEvent("saml.sp_deleted", actor, { sp: id });
}
