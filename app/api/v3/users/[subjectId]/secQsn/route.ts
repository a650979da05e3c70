// GET|POST|DELETE /api/v3/users/{subjectId}/secQsn – read, set or delete the account's security question
import { otherMethods } from "@/server/http/fallback-routes";
import { deleteSecurityQuestionRoute, getSecurityQuestionRoute, setSecurityQuestionRoute } from "@/server/security-question/security-question.routes";

export const GET = getSecurityQuestionRoute;
export const POST = setSecurityQuestionRoute;
export const DELETE = deleteSecurityQuestionRoute;
export const { PUT, PATCH } = otherMethods(getSecurityQuestionRoute, setSecurityQuestionRoute, deleteSecurityQuestionRoute);
