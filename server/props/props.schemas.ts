import { z } from "zod";

export type TPropValue = string | number | boolean;
export type TProps = Record<string, TPropValue>;

const ZPropValue = z.union([z.string(), z.number(), z.boolean()]);

/** A flat object: property name to value (string, number or boolean). */
export const ZProps = z.record(z.string(), ZPropValue).meta({ id: "UserProps" });

/**
 * The change as documented. The body is checked by checkPropsChange (props.service.ts), not by this
 * schema: the limits come from configuration, and each error names the property (`add.<name>`).
 */
export const ZPropsChange = z
  .object({
    add: z.record(z.string(), ZPropValue).optional().describe("name to new value; an existing name gets the new value"),
    remove: z.array(z.string()).optional().describe("names to delete; a name the account does not have is ignored"),
  })
  .meta({ id: "UserPropsChange" });
export type TPropsChange = { add: [string, TPropValue][]; remove: string[] };
