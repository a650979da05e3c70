// POST /reg/api/v3/users/{context} – confirm a registration's contact with its code, or ask for a new one
import { confirmRegistrationRoute } from "@/server/registration/registration.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const POST = confirmRegistrationRoute;
export const { GET, PUT, PATCH, DELETE } = otherMethods(confirmRegistrationRoute);
