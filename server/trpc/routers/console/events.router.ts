import { ZListEventsRequest } from "../../../audit/events-console.schemas.ts";
import { listEvents } from "../../../audit/events-console.service.ts";
import { consoleReadProcedure, createRouter } from "../../init.ts";

/** The security events trail in the console (the CSV export is a route handler: a download, not a call). */
export const eventsRouter = createRouter({
  list: consoleReadProcedure.input(ZListEventsRequest).query(({ input }) => listEvents(input)),
});
