// An account's webhook endpoints: every function takes the owner's id and filters by it, so another
// account's endpoint is simply not found (WebhookNotFoundError).
import { and, desc, eq } from "drizzle-orm";
import { getDb, withTx, type Executor, type Tx } from "#app/db/client.server.ts";
import { webhookCallbackSecrets, webhookEndpoints } from "#app/db/schema/webhooks.ts";
import { clock } from "#app/utils/clock.server.ts";
import { WebhookNotFoundError } from "#app/modules/webhooks/errors.ts";
import { parseEventTypes, type WebhookEventType } from "#app/modules/webhooks/event-types.ts";
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret } from "#app/modules/webhooks/secrets.server.ts";
import { forgetSubscriptions } from "#app/modules/webhooks/subscriptions.server.ts";
import { checkWebhookUrl } from "#app/modules/webhooks/targets.server.ts";

/** At most this many endpoints per account: each one multiplies every event's deliveries. */
const MAX_ENDPOINTS = 10;

export type WebhookEndpoint = {
  id: number;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  failingSince: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  enabled: webhookEndpoints.enabled,
  failingSince: webhookEndpoints.failingSince,
  disabledReason: webhookEndpoints.disabledReason,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
};

type Row = Omit<WebhookEndpoint, "events"> & { events: string };
const present = (row: Row): WebhookEndpoint => ({ ...row, events: parseEventTypes(row.events) });
const endpointContext = (id: number) => `endpoint:${id}`;
const callbackContext = (userId: number) => `callback:${userId}`;
const own = (userId: number, id: number) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId));

export async function listEndpoints(userId: number): Promise<WebhookEndpoint[]> {
  return (
    await getDb()
      .select(columns)
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(desc(webhookEndpoints.id))
      .all()
  ).map(present);
}

export async function getEndpoint(userId: number, id: number): Promise<WebhookEndpoint> {
  const row = await getDb().select(columns).from(webhookEndpoints).where(own(userId, id)).get();
  if (!row) throw new WebhookNotFoundError();
  return present(row);
}

export class TooManyEndpointsError extends Error {
  readonly code = "quota_exceeded";
  constructor() {
    super(`An account can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
    this.name = "TooManyEndpointsError";
  }
}

export type EndpointInput = { url: string; events: WebhookEventType[]; enabled: boolean };

/** Creates an endpoint (URL checked: UnsafeWebhookUrlError); its secret is returned this once. */
export async function createEndpoint(userId: number, input: EndpointInput) {
  const url = (await checkWebhookUrl(input.url)).href;
  const secret = newWebhookSecret();
  const now = clock.date();
  const endpoint = await withTx(async (tx) => {
    if ((await listEndpoints(userId)).length >= MAX_ENDPOINTS) throw new TooManyEndpointsError();
    const { id } = await tx
      .insert(webhookEndpoints)
      .values({
        userId,
        url,
        events: input.events.join(" "),
        enabled: input.enabled,
        secretCiphertext: "",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: webhookEndpoints.id })
      .get();
    // Sealed with its own id as context, so it is written once the id is known.
    await tx
      .update(webhookEndpoints)
      .set({ secretCiphertext: sealWebhookSecret(secret, endpointContext(id)) })
      .where(eq(webhookEndpoints.id, id))
      .run();
    return await getEndpoint(userId, id);
  });
  forgetSubscriptions();
  return { endpoint, secret };
}

/** Changes what is given; turning it on again clears the gateway's reason for turning it off. */
export async function updateEndpoint(userId: number, id: number, change: Partial<EndpointInput>) {
  await getEndpoint(userId, id);
  const url = change.url === undefined ? undefined : (await checkWebhookUrl(change.url)).href;
  await withTx((tx) =>
    tx
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined && { url }),
        ...(change.events && { events: change.events.join(" ") }),
        ...(change.enabled !== undefined && { enabled: change.enabled }),
        ...(change.enabled && { disabledReason: null, failingSince: null }),
        updatedAt: clock.date(),
      })
      .where(own(userId, id))
      .run(),
  );
  forgetSubscriptions();
  return await getEndpoint(userId, id);
}

/** Deletes the endpoint and its delivery log. */
export async function deleteEndpoint(userId: number, id: number): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(userId, id);
  await withTx((tx) => tx.delete(webhookEndpoints).where(own(userId, id)).run());
  forgetSubscriptions();
  return endpoint;
}

/**
 * Deletes every endpoint of the user (with its delivery log) and the statusCallback secret inside
 * the caller's transaction; the number of endpoints. Call forgetSubscriptions() once it has committed.
 */
export async function deleteAllEndpoints(tx: Tx, userId: number): Promise<number> {
  await tx.delete(webhookCallbackSecrets).where(eq(webhookCallbackSecrets.userId, userId)).run();
  return (await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).run()).changes;
}

/** A new secret, returned this once; deliveries from now on (retries too) are signed with it. */
export async function rotateEndpointSecret(
  userId: number,
  id: number,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await getEndpoint(userId, id);
  const secret = newWebhookSecret();
  await withTx((tx) =>
    tx
      .update(webhookEndpoints)
      .set({ secretCiphertext: sealWebhookSecret(secret, endpointContext(id)), updatedAt: clock.date() })
      .where(own(userId, id))
      .run(),
  );
  return { endpoint: await getEndpoint(userId, id), secret };
}

/** The owner's endpoint's signing secret, to show it (after it was made or replaced). */
export async function revealEndpointSecret(userId: number, id: number): Promise<string> {
  const row = await getDb()
    .select({ sealed: webhookEndpoints.secretCiphertext })
    .from(webhookEndpoints)
    .where(own(userId, id))
    .get();
  if (!row) throw new WebhookNotFoundError();
  return openWebhookSecret(row.sealed, endpointContext(id));
}

/** The account's statusCallback secret, or null when it has none yet (reads only). */
export async function revealCallbackSecret(userId: number): Promise<string | null> {
  const row = await getDb()
    .select({ sealed: webhookCallbackSecrets.secretCiphertext })
    .from(webhookCallbackSecrets)
    .where(eq(webhookCallbackSecrets.userId, userId))
    .get();
  return row ? openWebhookSecret(row.sealed, callbackContext(userId)) : null;
}

/** The secret deliveries to this endpoint are signed with (the worker's side). */
export function endpointSecret(id: number, sealed: string): string {
  return openWebhookSecret(sealed, endpointContext(id));
}

/** The account's statusCallback secret, made (inside the caller's transaction) on first use. */
export async function ensureCallbackSecret(tx: Executor, userId: number): Promise<void> {
  await tx
    .insert(webhookCallbackSecrets)
    .values({ userId, secretCiphertext: sealWebhookSecret(newWebhookSecret(), callbackContext(userId)) })
    .onConflictDoNothing()
    .run();
}

/** The account's statusCallback secret (made now if it has none). */
export async function getCallbackSecret(userId: number): Promise<string> {
  const read = () =>
    getDb()
      .select({ sealed: webhookCallbackSecrets.secretCiphertext })
      .from(webhookCallbackSecrets)
      .where(eq(webhookCallbackSecrets.userId, userId))
      .get();
  let row = await read();
  if (!row) {
    await withTx((tx) => ensureCallbackSecret(tx, userId));
    row = (await read())!;
  }
  return openWebhookSecret(row.sealed, callbackContext(userId));
}

/** A new statusCallback secret; returned this once. */
export async function rotateCallbackSecret(userId: number): Promise<string> {
  const secret = newWebhookSecret();
  const sealed = sealWebhookSecret(secret, callbackContext(userId));
  await withTx((tx) =>
    tx
      .insert(webhookCallbackSecrets)
      .values({ userId, secretCiphertext: sealed })
      .onConflictDoUpdate({ target: webhookCallbackSecrets.userId, set: { secretCiphertext: sealed } })
      .run(),
  );
  return secret;
}
