import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import type { TMessagingConfig } from "../config/messaging-config.ts";
import { inTransaction } from "../db/index.ts";
import { deliverClaimed, LEASE_MS, type TDeliveryDeps } from "./delivery.service.ts";
import { changeDeliverySettings, effectiveMessaging, storedDeliveryForm, type TEffectiveMessaging } from "./delivery-settings.service.ts";
import { deliveryWorker } from "./delivery-worker.ts";
import { ZTestMessageRequest, type TTestMessageRequest } from "./messaging.schemas.ts";
import { findOutboxMessage } from "./outbox.repository.ts";
import { enqueueMessage } from "./outbox.service.ts";
import { maskRecipient } from "./recipient-mask.ts";
import { transportsFromConfig } from "./transports.ts";

/** A URL as the console shows it: the password replaced, no query string (webhook tokens hide there too). */
function maskUrl(value: string): string {
  if (!URL.canParse(value)) return "(not a URL)";
  const url = new URL(value);
  if (url.password) url.password = "****";
  url.search = "";
  return url.toString();
}

/** Which transports are configured, and where from, without a secret. */
export function describeTransports(config: TMessagingConfig, sources: TEffectiveMessaging["sources"] = {}) {
  return {
    email: config.smtp ? { url: maskUrl(config.smtp.url), from: config.smtp.from, source: sources.email ?? "environment" } : null,
    sms: config.smsWebhook ? { url: maskUrl(config.smsWebhook.url), bearerToken: Boolean(config.smsWebhook.token), source: sources.sms ?? "environment" } : null,
  };
}

/** The console's delivery page: the transports in force, and the console's own settings for its forms. */
export async function describeDelivery() {
  const { config, sources } = await effectiveMessaging();
  return { ...describeTransports(config, sources), stored: await storedDeliveryForm() };
}

/** Saves one channel's settings; this process's worker uses them before the answer goes back. */
export async function saveDeliverySettings(input: unknown, actor: TEventActor) {
  await changeDeliverySettings(input, actor);
  await deliveryWorker()?.reload();
  return describeDelivery();
}

// The running worker's transports, so the test goes exactly where real messages go.
async function currentDeps(): Promise<TDeliveryDeps> {
  return deliveryWorker()?.deps ?? { transports: transportsFromConfig((await effectiveMessaging()).config), clock: () => new Date() };
}

/**
 * Sends a test message through the transport while the administrator waits, and records it in the
 * outbox. It is claimed on insert (due only after the lease), so no worker sends it a second time,
 * and a failure is final: the administrator sees the transport's error now and can resend.
 */
export async function sendTestMessage(req: TTestMessageRequest, actor: TEventActor, given?: TDeliveryDeps) {
  const { channel, to, locale } = ZTestMessageRequest.parse(req);
  const deps = given ?? (await currentDeps());
  const leaseUntil = new Date(deps.clock().getTime() + LEASE_MS);
  const { id } = await inTransaction((tx) =>
    enqueueMessage(tx, { channel, to, template: "test_message", locale: locale ?? "ru", params: {}, purpose: "console.test" }, leaseUntil),
  );
  const row = (await findOutboxMessage(id))!;
  const result = await deliverClaimed(row, deps, true);
  await recordEvent("outbox.test_sent", actor, { message: id, channel, to: maskRecipient(to), status: result.status });
  return { messageId: id, ...result };
}
