// PUT /reg/api/v1/users – register an account (deprecated)
import { registerV1Route } from "@/server/registration/registration.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const PUT = registerV1Route;
export const { GET, POST, PATCH, DELETE } = otherMethods(registerV1Route);
