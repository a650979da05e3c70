/** A contact change that waits for its code, as stored: what account reads look for beside the account. */
export const WAITING_CHANGE = { purpose: "contact_change", status: "code_waiting" } as const;
