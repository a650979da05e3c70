// GET|POST /consent?flow=… – the consent page for clients that are not first-party
import { consentPage, consentSubmit } from "@/server/sign-in/consent.routes";

export const GET = consentPage;
export const POST = consentSubmit;
