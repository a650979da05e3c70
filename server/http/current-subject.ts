/**
 * "current" stands for the token's own user wherever a path names the account acted on. The request
 * core resolves it once, before the handler runs (request-core.ts), in the parameter an operation
 * names as its subject (`subjectParam`, or `currentParam`); a body field that may say it (an OTP
 * attach's subjectId) is read by its service.
 */
export const CURRENT_SUBJECT = "current";
