import { pageUrl } from "../oauth/authorize/authorize.service.ts";
import { flowParam } from "./flow-completion.ts";
import { renderLogin, submitCredentials } from "./login-form.ts";
import { loadFlow } from "./login-flows.service.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";

// GET {ctx}/login?flow=… – the sign-in form of a flow
export const loginPage = pageRoute("GET", "/login", async (req) => {
  const flow = await loadFlow(flowParam(req));
  if (flow.step === "consent") return seeOther(pageUrl("consent", flow.id));
  return renderLogin(req, flow, flow.request.loginHint);
});

// POST {ctx}/login?flow=… – submit the identifier and password
export const loginSubmit = pageRoute("POST", "/login", async (req, ctx) => submitCredentials(req, ctx, await loadFlow(flowParam(req))));
