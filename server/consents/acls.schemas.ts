import { z } from "zod";

/** A consent the user gave an application, in the shape of the product the contract comes from. */
export const ZAcl = z
  .object({
    id: z.string().describe("what DELETE …/acls/{id} revokes"),
    updated: z.number().int().describe("Unix time of the last grant"),
    client_id: z.string(),
    scopes: z.array(z.string()).describe("the scopes the user allowed the application"),
  })
  .meta({ id: "Acl" });
export type TAcl = z.infer<typeof ZAcl>;
