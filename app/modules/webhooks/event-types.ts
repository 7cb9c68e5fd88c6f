// Browser-safe: the events an endpoint can subscribe to (docs: features/webhooks.md), shared by the
// form, the REST schemas and the outbox.
export const WEBHOOK_EVENT_TYPES = [
  "message.sent",
  "message.delivered",
  "message.failed",
  "message.received",
  "opt_out.changed",
  "group_send.completed",
  "balance.low",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events whose data is a message, its body included. */
export const isMessageEvent = (type: WebhookEventType) => type.startsWith("message.");

/** Sent only by "Send test event"; no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "message.sent": "Message sent (the SMSC took it)",
  "message.delivered": "Message delivered",
  "message.failed": "Message failed (undelivered, expired, rejected or failed)",
  "message.received": "Message received (inbound)",
  "opt_out.changed": "Opt-out changed",
  "group_send.completed": "Group send completed",
  "balance.low": "Balance low",
};

/** Stored space-separated; unknown words are dropped. */
export function parseEventTypes(stored: string): WebhookEventType[] {
  const words = stored.split(" ");
  return WEBHOOK_EVENT_TYPES.filter((type) => words.includes(type));
}
