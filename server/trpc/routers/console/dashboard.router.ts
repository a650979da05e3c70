import { consoleDashboard } from "../../../dashboard/dashboard.service.ts";
import { consoleReadProcedure, createRouter } from "../../init.ts";

/** The console's home page: figures every console role may read. */
export const dashboardRouter = createRouter({
  get: consoleReadProcedure.query(() => consoleDashboard()),
});
