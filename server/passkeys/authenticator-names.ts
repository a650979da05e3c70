/*
 * Names of well-known authenticator models by AAGUID, for people to recognise their passkeys. Taken
 * from the community list github.com/passkeydeveloper/passkey-authenticator-aaguids (names only) and,
 * for YubiKeys, Yubico's FIDO metadata. For display only: without attestation an AAGUID is whatever
 * the client says, so nothing is decided by it here (the policy's "direct" attestation is what proves one).
 */
const WELL_KNOWN: Readonly<Record<string, string>> = {
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
  "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
  "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5 Series",
  "ee882879-721c-4913-9775-3dfcce97072a": "YubiKey 5 Series",
  "fa2b99dc-9e39-4257-8f92-4a30d23c4118": "YubiKey 5 Series with NFC",
  "2fc0579f-8113-47ea-b116-bb5a8db9202a": "YubiKey 5 Series with NFC",
  "c5ef55ff-ad9a-4b9f-b580-adebafe026d0": "YubiKey 5Ci",
};

/**
 * The authenticator's name: the uploaded metadata's description first (the administrator chose
 * that file), then the bundled table; null when neither knows it (the pages say "Unknown authenticator").
 */
export function authenticatorName(aaguid: string, fromMetadata: ReadonlyMap<string, string>): string | null {
  const key = aaguid.toLowerCase();
  return fromMetadata.get(key) ?? WELL_KNOWN[key] ?? null;
}
