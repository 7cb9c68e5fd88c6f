// Which accounts want which events, read once a second at most: a status change of an account
// without endpoints then costs a Map look-up, not a query (the send path's budget is a few µs).
// Which endpoints an event goes to is read exactly, once per write transaction.
import { runningTransaction } from "#app/db/client.server.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { parseEventTypes, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";

/** How stale another process's change may be seen here; this process's own changes are seen at once. */
const FRESH_MS = 1_000;

const queries = statements({
  enabled: sqlText<[], { userId: number; events: string }>({
    sqlite: "select user_id as userId, events from webhook_endpoints where enabled = 1",
    postgres: `select user_id as "userId", events from webhook_endpoints where enabled`,
  }),
  userEndpoints: sqlText<[number], { id: number; events: string }>({
    sqlite: "select id, events from webhook_endpoints where user_id = ? and enabled = 1",
    postgres: `select id, events from webhook_endpoints where user_id = $1 and enabled`,
  }),
});

let cached: { byUser: Map<number, Set<WebhookEventType>>; readAt: number } | undefined;

async function read() {
  const byUser = new Map<number, Set<WebhookEventType>>();
  for (const { userId, events } of await queries.enabled.all()) {
    const wanted = byUser.get(userId) ?? new Set();
    for (const type of parseEventTypes(events)) wanted.add(type);
    byUser.set(userId, wanted);
  }
  return { byUser, readAt: performance.now() };
}

/** Whether any enabled endpoint of the account subscribes to `type`. */
export async function wantsEvent(userId: number, type: WebhookEventType): Promise<boolean> {
  if (!cached || performance.now() - cached.readAt > FRESH_MS) cached = await read();
  return cached.byUser.get(userId)?.has(type) ?? false;
}

type Subscribed = { id: number; events: WebhookEventType[] };
// The account's enabled endpoints, read once per write transaction: a status change's events name
// exactly the endpoints that exist (a delivery's endpoint is a foreign key), without a query each.
let readInTransaction: { transaction: number; byUser: Map<number, Subscribed[]> } | undefined;

async function readEndpoints(userId: number): Promise<Subscribed[]> {
  return (await queries.userEndpoints.all(userId)).map((endpoint) => ({
    id: endpoint.id,
    events: parseEventTypes(endpoint.events),
  }));
}

/** The ids of the account's enabled endpoints subscribed to `type`, as they are now. */
export async function endpointsWanting(userId: number, type: WebhookEventType): Promise<number[]> {
  const transaction = runningTransaction();
  let endpoints: Subscribed[] | undefined;
  if (transaction === null) endpoints = await readEndpoints(userId);
  else {
    if (readInTransaction?.transaction !== transaction) readInTransaction = { transaction, byUser: new Map() };
    endpoints = readInTransaction.byUser.get(userId);
    if (!endpoints) readInTransaction.byUser.set(userId, (endpoints = await readEndpoints(userId)));
  }
  return endpoints.filter((endpoint) => endpoint.events.includes(type)).map((endpoint) => endpoint.id);
}

/** After an endpoint changed: the next event reads the table again. */
export function forgetSubscriptions(): void {
  cached = undefined;
  readInTransaction = undefined;
}
