// POST /api/v3/users/{instanceId}/pswd – changes the user's password (or sets a generated one)
import { otherMethods } from "@/server/http/fallback-routes";
import { changePasswordRoute } from "@/server/passwords/passwords.routes";

export const POST = changePasswordRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(changePasswordRoute);
