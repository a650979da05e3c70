import { createRouter } from "./init.ts";
import { clientsRouter } from "./routers/console/clients.router.ts";

export const appRouter = createRouter({
  console: createRouter({ clients: clientsRouter }),
});

export type AppRouter = typeof appRouter;
