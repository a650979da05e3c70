import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { ZCheckSecurityQuestion, ZSecurityQuestion, ZSetSecurityQuestion } from "./security-question.schemas.ts";
import { checkSecurityQuestion, getSecurityQuestion, setSecurityQuestion, unsetSecurityQuestion } from "./security-question.service.ts";

const TAGS = ["Security question (v3)"];
// Next allows one folder name per level: the [subjectId] folder also carries an instanceId.
const ZSubjectOrInstance = z.object({
  subjectId: z.string().min(1).max(1024).describe("account id (sub), `current` in user mode, or the account's meta.instanceId (the contract's user-mode form)"),
});
const NORMALISATION =
  "Answers (and the question of a check) are compared after Unicode NFKC normalisation, a full case fold, ё = е, and with every run of " +
  "white space taken as one space and trimmed. Only an argon2id hash of the normalised answer is stored.";

export const getSecurityQuestionRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/secQsn",
    summary: "Read the account's security question",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The question (never the answer)", schema: ZSecurityQuestion },
    errors: ["user.not_found", "secqsn.not_set"],
  },
  ({ ctx, params }) => getSecurityQuestion(ctx, params.subjectId),
);

export const setSecurityQuestionRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/secQsn",
    summary: "Set or replace the account's security question and answer",
    description: `${NORMALISATION} The path segment may be the subject or, as the contract's user-mode form has it, the account's instanceId (a stale one is refused with 409). Question and answer: 1–500 characters.`,
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], currentParam: "subjectId" },
    params: ZSubjectOrInstance,
    body: ZSetSecurityQuestion,
    response: { status: 204, description: "Set" },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params, body }) => {
    await setSecurityQuestion(ctx, params.subjectId, body);
  },
);

export const deleteSecurityQuestionRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/secQsn",
    summary: "Delete the account's security question",
    description: "404 when the account has none. The segment may be the subject or the account's instanceId.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], currentParam: "subjectId" },
    params: ZSubjectOrInstance,
    response: { status: 204, description: "Deleted" },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", "secqsn.not_set", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params }) => {
    await unsetSecurityQuestion(ctx, params.subjectId);
  },
);

export const checkSecurityQuestionRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/secQsn/check",
    summary: "Check a question and its answer",
    description:
      `${NORMALISATION} A wrong question or answer is 400 process_error wrong_security_answer whose desc says which ` +
      "(`security question not match`, `security answer not match`; `security question not found` when none is set). Failed checks are " +
      "limited per account like failed sign-ins (a counter of its own): 5, then 429 too_many_attempts with Retry-After for 30 s, doubling " +
      "with each further lockout up to 15 min, at most 100 an hour; a right answer starts the count over. Parallel checks never exceed it: " +
      "each takes its slot before it is evaluated.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], currentParam: "subjectId" },
    params: ZSubjectOrInstance,
    body: ZCheckSecurityQuestion,
    response: { status: 204, description: "Question and answer match" },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", "secqsn.wrong_answer", "secqsn.locked_out"],
  },
  async ({ ctx, params, body }) => {
    await checkSecurityQuestion(ctx, params.subjectId, body);
  },
);

export const SECURITY_QUESTION_ROUTES = [getSecurityQuestionRoute, setSecurityQuestionRoute, deleteSecurityQuestionRoute, checkSecurityQuestionRoute];
