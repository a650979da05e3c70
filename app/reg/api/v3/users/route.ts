// PUT /reg/api/v3/users – register an account
import { registerV3Route } from "@/server/registration/registration.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const PUT = registerV3Route;
export const { GET, POST, PATCH, DELETE } = otherMethods(registerV3Route);
