import { defineRoute } from "../caller/define-route.ts";
import { accountStateAnswer } from "./account-state-read.ts";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { ZAccountState, ZSetAccountState } from "./account-state.schemas.ts";
import { changeAccountState } from "./account-state.service.ts";

const TAGS = ["Account state (v3)"];

export const getAccountStateRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/state",
    summary: "Read the account's state",
    description:
      "`initial` until the first sign-in; `active` after it, `checkedOn` = the last sign-in (or an administrator's unlock), from which " +
      "the inactivity period counts; `inactivityLock` once IDP_INACTIVITY_LOCK_DAYS passed without a sign-in (`on` = when), until an " +
      "administrator unlocks (console, or `npm run idp -- unlock <sub>`), which makes it `active` again; `untouchable` while an " +
      "exemption is in force (`till`, absent = forever), over whichever state is beneath. The period is applied at sign-in and by a " +
      "periodic sweep; this read shows what is stored. Every change is a `user.state_changed` event.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The account state object", schema: ZAccountState },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => accountStateAnswer(ctx, params.subjectId),
);

export const setAccountStateRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/state",
    summary: "Make the account untouchable (exempt from the inactivity lock), or end that",
    description:
      "Only `untouchable` is assignable (any other name: 400 input_error at `name`). Without `till` the exemption has no end; with a " +
      "future `till` it ends then; a `till` of now or earlier cancels it (a no-op when none is in force). An account locked for " +
      "inactivity is unlocked by it. When an exemption ends, the inactivity period counts from its end at the earliest.",
    tags: TAGS,
    auth: { kind: "bearer", system: ["idp_api_sys_usec_chg"] },
    params: ZSubjectParams,
    body: ZSetAccountState,
    response: { status: 204, description: "Done" },
    errors: ["user.not_found", "state.not_assignable"],
  },
  async ({ ctx, params, body }) => {
    await changeAccountState(ctx, params.subjectId, body);
  },
);

export const ACCOUNT_STATE_ROUTES = [getAccountStateRoute, setAccountStateRoute];
