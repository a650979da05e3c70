// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import "reflect-metadata";
import { KeyObject, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

// A small attestation PKI for tests: a self-signed root (the vendor's, as the FIDO metadata lists it)
// and a leaf under it that a software authenticator signs its "packed" attestation with, plus the
// MDS3 payload that names the model. Nothing here reaches the network.

x509.cryptoProvider.set(webcrypto as unknown as Crypto);
const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY = 86_400_000;

export type TAttestationKey = { rootDer: Uint8Array; leafDer: Uint8Array; leafKey: KeyObject };

export async function makeAttestationKey(vendor = "Test Vendor"): Promise<TAttestationKey> {
  const root = await webcrypto.subtle.generateKey(EC, true, ["sign", "verify"]);
  const leaf = await webcrypto.subtle.generateKey(EC, true, ["sign", "verify"]);
  const notBefore = new Date(Date.now() - DAY);
  const notAfter = new Date(Date.now() + 365 * DAY);
  const rootCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${vendor} Root, O=${vendor}, C=US`,
    notBefore,
    notAfter,
    keys: root,
    signingAlgorithm: EC,
    extensions: [new x509.BasicConstraintsExtension(true, 1, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  // What the spec asks of a packed attestation certificate: OU "Authenticator Attestation", C, O, CN, not a CA.
  const leafCert = await x509.X509CertificateGenerator.create({
    serialNumber: "02",
    subject: `CN=${vendor} Key, OU=Authenticator Attestation, O=${vendor}, C=US`,
    issuer: rootCert.subject,
    notBefore,
    notAfter,
    publicKey: leaf.publicKey,
    signingKey: root.privateKey,
    signingAlgorithm: EC,
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
  });
  return { rootDer: new Uint8Array(rootCert.rawData), leafDer: new Uint8Array(leafCert.rawData), leafKey: KeyObject.from(leaf.privateKey) };
}

/** An MDS3 payload (what the BLOB's JWT carries) listing these models. */
export function metadataPayload(models: { aaguid: string; description: string; rootDer: Uint8Array; status?: string }[]) {
  return {
    legalHeader: "test metadata",
    no: 1,
    nextUpdate: "2099-01-01",
    entries: models.map((m) => ({
      aaguid: m.aaguid,
      metadataStatement: {
        aaguid: m.aaguid,
        description: m.description,
        protocolFamily: "fido2",
        schema: 3,
        attestationTypes: ["basic_full"],
        authenticationAlgorithms: ["secp256r1_ecdsa_sha256_raw"],
        attestationRootCertificates: [Buffer.from(m.rootDer).toString("base64")],
      },
      statusReports: [{ status: m.status ?? "FIDO_CERTIFIED_L1", effectiveDate: "2024-01-01" }],
      timeOfLastStatusChange: "2024-01-01",
    })),
  };
}

/** The AAGUID's 16 bytes, as authenticator data carries them. */
export const aaguidBytes = (aaguid: string) => new Uint8Array(Buffer.from(aaguid.replace(/-/g, ""), "hex"));
