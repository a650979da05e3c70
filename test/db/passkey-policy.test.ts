import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { insertPasskey } from "../../server/passkeys/passkeys.repository.ts";
import { changePasskeyPolicy, getPasskeyPolicy, passkeyEnrolmentRequired } from "../../server/passkeys/passkey-policy.service.ts";
import { DEFAULT_PASSKEY_POLICY } from "../../server/passkeys/passkey-policy.schemas.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The passkey policy in the database: saved by the console (with its event), carried by the import
// document, and what it asks of administrators.

describe.each(DB_KINDS)("the passkey policy on %s", (kind) => {
  let t: TTestDatabase;
  const admin = `pk-admin-${kind}`;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ users: [{ sub: admin, roles: ["admin"] }] }, {});
  });
  afterAll(async () => t?.close());

  it("is the default until saved, and a save is recorded with who made it", async () => {
    expect(await getPasskeyPolicy()).toEqual(DEFAULT_PASSKEY_POLICY);
    const refused = await changePasskeyPolicy({ requiredForAdmins: true }, { subject: admin }).catch((e: unknown) => e);
    expect((refused as AppError).code).toBe("passkeys.enrol_first");
    expect(await changePasskeyPolicy({ attachment: "platform", userVerification: "preferred" }, { subject: admin }, { by: "console" })).toMatchObject({ attachment: "platform", userVerification: "preferred" });
    expect(await getPasskeyPolicy()).toMatchObject({ attachment: "platform" });
    const event = await t.db.prisma.securityEvent.findFirst({ where: { type: "passkey.policy_changed", subject: admin }, orderBy: { id: "desc" }, select: { params: true } });
    expect(event?.params).toMatchObject({ by: "console", policy: { attachment: "platform", userVerification: "preferred" } });
  });

  it("is carried by the import document as a whole, and importing it again changes nothing", async () => {
    const doc = { passkeyPolicy: { offered: false } };
    expect((await importDocument(doc, {})).passkeyPolicy).toEqual({ created: [], updated: ["default"], unchanged: [] });
    expect(await getPasskeyPolicy()).toEqual({ ...DEFAULT_PASSKEY_POLICY, offered: false });
    expect((await importDocument(doc, {})).passkeyPolicy).toEqual({ created: [], updated: [], unchanged: ["default"] });
    const bad = await importDocument({ passkeyPolicy: { offered: false, requiredForAdmins: true } }, {}).catch((e: unknown) => e);
    expect((bad as AppError).code).toBe("import.invalid_document");
  });

  it("asks an administrator without a passkey to enrol one, and no longer once they have", async () => {
    await insertPasskey({ id: `cred-${kind}`, userId: admin, name: "Key", publicKey: new Uint8Array([1]), counter: 0n, transports: [], aaguid: "00000000-0000-0000-0000-000000000000", deviceType: "singleDevice", backedUp: false });
    await changePasskeyPolicy({ requiredForAdmins: true }, { subject: admin });
    expect(await passkeyEnrolmentRequired(admin)).toBe(false);
    await importDocument({ users: [{ sub: `pk-deputy-${kind}`, roles: ["admin"] }] }, {});
    expect(await passkeyEnrolmentRequired(`pk-deputy-${kind}`)).toBe(true);
    await changePasskeyPolicy({}, { subject: admin });
    expect(await passkeyEnrolmentRequired(`pk-deputy-${kind}`)).toBe(false);
  });
});
