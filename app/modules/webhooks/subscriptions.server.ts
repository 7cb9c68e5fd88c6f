// Which accounts want which events, read once a second at most: a status change of an account
// without endpoints then costs a Map look-up, not a query (the send path's budget is a few µs).
import { statement } from "#app/db/statements.server.ts";
import { parseEventTypes, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";

/** How stale another process's change may be seen here; this process's own changes are seen at once. */
const FRESH_MS = 1_000;

const selectEnabled = statement<[], { userId: number; events: string }>(
  "select user_id as userId, events from webhook_endpoints where enabled = 1",
);

let cached: { byUser: Map<number, Set<WebhookEventType>>; readAt: number } | undefined;

function read() {
  const byUser = new Map<number, Set<WebhookEventType>>();
  for (const { userId, events } of selectEnabled().all()) {
    const wanted = byUser.get(userId) ?? new Set();
    for (const type of parseEventTypes(events)) wanted.add(type);
    byUser.set(userId, wanted);
  }
  return { byUser, readAt: performance.now() };
}

/** Whether any enabled endpoint of the account subscribes to `type`. */
export function wantsEvent(userId: number, type: WebhookEventType): boolean {
  if (!cached || performance.now() - cached.readAt > FRESH_MS) cached = read();
  return cached.byUser.get(userId)?.has(type) ?? false;
}

/** After an endpoint changed: the next event reads the table again. */
export function forgetSubscriptions(): void {
  cached = undefined;
}
