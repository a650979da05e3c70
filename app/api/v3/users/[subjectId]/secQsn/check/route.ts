// POST /api/v3/users/{subjectId}/secQsn/check – check a security question and its answer
import { otherMethods } from "@/server/http/fallback-routes";
import { checkSecurityQuestionRoute } from "@/server/security-question/security-question.routes";

export const POST = checkSecurityQuestionRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(checkSecurityQuestionRoute);
