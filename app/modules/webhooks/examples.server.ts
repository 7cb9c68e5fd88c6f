// The reader's own ids for the API documentation's examples.
import { asc, desc, eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { webhookDeliveries, webhookEndpoints } from "#app/db/schema/webhooks.ts";

/** The account's newest endpoint and that endpoint's newest delivery (null where it has none). */
export async function latestEndpointIds(
  userId: number,
): Promise<{ endpointId: number | null; deliveryId: number | null }> {
  const endpoint = await getDb()
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(desc(webhookEndpoints.id))
    .get();
  if (!endpoint) return { endpointId: null, deliveryId: null };
  const delivery = await getDb()
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(webhookDeliveries.id))
    .get();
  return { endpointId: endpoint.id, deliveryId: delivery?.id ?? null };
}

/** The account's oldest endpoint: the delete example's, so the other examples keep the newest. */
export async function oldestEndpointId(userId: number): Promise<number | null> {
  return (
    (
      await getDb()
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.userId, userId))
        .orderBy(asc(webhookEndpoints.id))
        .get()
    )?.id ?? null
  );
}
