// PUT /rest/usr/{username}/attach/hotp – bind a loaded hardware generator by three consecutive codes (v1)
import { otherMethods } from "@/server/http/fallback-routes";
import { attachHotpV1Route } from "@/server/otp/otp-v1.routes";

export const PUT = attachHotpV1Route;
export const { GET, POST, PATCH, DELETE } = otherMethods(attachHotpV1Route);
