import { z } from "zod";

/** POST /api/v3/users/{instanceId}/pswd. Lengths beyond the policy's maximum are the policy's to refuse (too_long), with its message. */
export const ZChangePasswordRequest = z
  .strictObject({
    current: z.string().max(4096).optional().describe("The current password; required in user mode, ignored in system mode"),
    password: z.string().max(4096).optional().describe("The new password; when absent the service generates one that satisfies the policy"),
    sendPswdToAttr: z.string().min(1).max(128).optional().describe("Name of a phone attribute of the account: the new password goes there by SMS"),
  })
  .meta({
    id: "ChangePasswordRequest",
    examples: [
      { current: "old correct horse", password: "new battery staple 42" },
      { sendPswdToAttr: "phone_number" },
    ],
  });
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

const ZPolicyItem = z.object({
  type: z.literal("input_error"),
  error: z.literal("password_policy_violated"),
  desc: z.string(),
  pos: z.literal("password"),
  params: z.object({ rule: z.string() }).catchall(z.unknown()),
});

export const ZPolicyViolation = z
  .object({ type: z.literal("input_error"), error: z.literal("wrong_values"), errors: z.array(ZPolicyItem) })
  .meta({
    id: "PasswordPolicyViolation",
    description:
      "One item per violated rule; params.rule is one of to_short (low), too_long (high), not_enough_groups (no_matched_groups: [{desc, min_number_symbols}]), " +
      "in_password_history, eq_current, not_enough_new_chars (minNew), in_stop_dic (stop_word), in_password_dic, too_young (minAgeInSec)",
    example: {
      type: "input_error",
      error: "wrong_values",
      errors: [
        { type: "input_error", error: "password_policy_violated", desc: "The password must be at least 15 characters long", pos: "password", params: { rule: "to_short", low: 15 } },
      ],
    },
  });

export const ZPasswordStoreRefused = ZPolicyItem.meta({
  id: "PasswordStoreRefused",
  description: "Rule id_store, a single item: another change of the same password committed while this one was being checked; read and try again",
  example: { type: "input_error", error: "password_policy_violated", desc: "The password store refused the change: another request changed the password just now; try again", pos: "password", params: { rule: "id_store" } },
});
