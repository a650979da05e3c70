import { defineRoute } from "../caller/define-route.ts";
import { propsAnswer } from "./props-read.ts";
import { parseJsonBody } from "../http/parse.ts";
import { ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { ZProps, ZPropsChange } from "./props.schemas.ts";
import { changeProps } from "./props.service.ts";

const TAGS = ["User properties (v3)"];

export const getPropsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/props",
    summary: "Read the account's properties",
    description: "A flat object of property names to values (strings, numbers, booleans); `{}` when there are none.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_user"], system: ["idp_api_sys_users"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The property object", schema: ZProps },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => propsAnswer(ctx, params.subjectId),
);

export const changePropsRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{subjectId}/props",
    summary: "Add, change and remove properties of the account",
    description:
      "`remove` is applied first, then `add` (a name may not be in both). Values are strings, numbers or booleans; null, objects and " +
      "arrays are refused. Limits (configuration): at most IDP_PROPS_MAX_COUNT properties (100), names of 1–IDP_PROPS_MAX_NAME " +
      "characters (128), string values of at most IDP_PROPS_MAX_VALUE characters (1024). A violation is 400 input_error with one item " +
      "per problem whose `pos` is `add.<name>` or `remove.<name>` (`add` for the count), and changes nothing. Parallel changes of one " +
      "account are merged by the database: none is lost.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_user_chg"], system: ["idp_api_sys_users_chg"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    jsonBody: ZPropsChange,
    response: { status: 200, description: "The property object after the change", schema: ZProps },
    errors: ["user.not_found", "request.invalid_values"],
  },
  async ({ ctx, params, request }) => {
    return changeProps(ctx, params.subjectId, await parseJsonBody(request));
  },
);

export const PROPS_ROUTES = [getPropsRoute, changePropsRoute];
