import { createRouter } from "./init.ts";
import { clientsRouter } from "./routers/console/clients.router.ts";
import { deliveryRouter } from "./routers/console/delivery.router.ts";
import { outboxRouter } from "./routers/console/outbox.router.ts";

export const appRouter = createRouter({
  console: createRouter({ clients: clientsRouter, outbox: outboxRouter, delivery: deliveryRouter }),
});

export type AppRouter = typeof appRouter;
