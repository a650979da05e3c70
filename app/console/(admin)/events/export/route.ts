// GET /console/events/export – the events page's filtered events as a CSV download (administrators only)
import { exportEventsRoute } from "@/server/audit/events-export.routes";

export const GET = exportEventsRoute;
