// A pending confirmation's row, as the contacts capability reads it and as other capabilities'
// queries bring it along (the account read joins its confirmations in one round trip): the type
// and the mapper, without the repository's data access.

export type TConfirmationRow = {
  state: string;
  purpose: string;
  userId: string | null;
  registrationId: string | null;
  attr: string;
  kind: string;
  value: string;
  oldValue: string | null;
  codeHash: string;
  attemptsLeft: number;
  status: string;
  expiresAt: Date;
  resendAt: Date;
  createdAt: Date;
};

/** A confirmation as PostgreSQL's row_to_json spells it (snake_case, timestamps as ISO text). */
export type TConfirmationJson = {
  state: string;
  purpose: string;
  user_id: string | null;
  registration_id: string | null;
  attr: string;
  kind: string;
  value: string;
  old_value: string | null;
  code_hash: string;
  attempts_left: number;
  status: string;
  expires_at: string;
  resend_at: string;
  created_at: string;
};

/** For queries that bring confirmations along as JSON (one round trip with the account they belong to). */
export function confirmationFromJson(j: TConfirmationJson): TConfirmationRow {
  return {
    state: j.state,
    purpose: j.purpose,
    userId: j.user_id,
    registrationId: j.registration_id,
    attr: j.attr,
    kind: j.kind,
    value: j.value,
    oldValue: j.old_value,
    codeHash: j.code_hash,
    attemptsLeft: j.attempts_left,
    status: j.status,
    expiresAt: new Date(j.expires_at),
    resendAt: new Date(j.resend_at),
    createdAt: new Date(j.created_at),
  };
}
