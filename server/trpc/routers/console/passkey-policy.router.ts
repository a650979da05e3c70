import { z } from "zod";
import { adminNote } from "../../../audit/audit.service.ts";
import { MAX_METADATA_CHARS } from "../../../passkeys/passkey-metadata.ts";
import { changePasskeyPolicy, getPasskeyPolicy, metadataAuthenticators, uploadPasskeyMetadata } from "../../../passkeys/passkey-policy.service.ts";
import { ZPasskeyPolicy } from "../../../passkeys/passkey-policy.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/**
 * The passkey policy page: the policy in force and the uploaded metadata's authenticators (every
 * console role reads them), saving a policy and uploading metadata (administrators). The upload is
 * the one call allowed a body over the usual limit (request-guard.ts).
 */
export const passkeyPolicyRouter = createRouter({
  get: consoleReadProcedure.query(async () => ({ policy: await getPasskeyPolicy(), metadata: await metadataAuthenticators() })),

  save: adminProcedure.input(ZPasskeyPolicy).mutation(({ input, ctx }) => changePasskeyPolicy(input, ctx.actor, adminNote(ctx.actor))),

  uploadMetadata: adminProcedure
    .input(z.strictObject({ file: z.string().min(1, "is required").max(MAX_METADATA_CHARS, `must be at most ${MAX_METADATA_CHARS / 1024 / 1024} MB`) }))
    .mutation(({ input, ctx }) => uploadPasskeyMetadata(input.file, ctx.actor, adminNote(ctx.actor))),
});
