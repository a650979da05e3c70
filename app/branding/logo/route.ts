// GET /branding/logo?v=… – the logo of the sign-in pages (set in the console or the import document)
import { logoRoute } from "@/server/branding/branding.routes";

export const GET = logoRoute;
