// GET|POST /api/v3/users/{subjectId}/props – read or change the account's properties
import { otherMethods } from "@/server/http/fallback-routes";
import { changePropsRoute, getPropsRoute } from "@/server/props/props.routes";

export const GET = getPropsRoute;
export const POST = changePropsRoute;
export const { PUT, PATCH, DELETE } = otherMethods(getPropsRoute, changePropsRoute);
