// Batch sends and quotes as the REST API shows them, on the sms module's queueBatch and countSegments.
import { createHash } from "node:crypto";
import { smsFormConfig } from "#app/modules/sms/config.server.ts";
import { normalizePhone } from "#app/modules/messaging/phone.ts";
import { countSegments } from "#app/modules/messaging/segments.ts";
import { ANY_DESTINATION, creditsPerSegmentIn } from "#app/modules/pricing/price-list.ts";
import { currentPriceList } from "#app/modules/pricing/prices.server.ts";
import { BatchKeyConflictError, type BatchItem, queueBatch } from "#app/modules/sms/send-batch.server.ts";
import { messageHasApiRef, scheduleHasApiRef } from "#app/modules/sms/own-messages.server.ts";
import { asAccepted, idempotencyConflict } from "#app/api/resources/message-sends.server.ts";
import type { ApiBatchResult } from "#app/api/resources/message-schemas.ts";

type BatchRequest = {
  body?: string;
  from?: string;
  messages: { to: string; body?: string; from?: string; statusCallback?: string }[];
};

/**
 * Sends each recipient of the batch it can, in order (see queueBatch); a result per recipient. An
 * Idempotency-Key covers the whole batch: a retry answers the first results and charges nothing.
 */
export async function sendApiBatch(
  userId: number,
  apiKeyId: number | null,
  request: BatchRequest,
  idempotencyKey: string | undefined,
): Promise<{ result: ApiBatchResult; replayed: boolean }> {
  const { defaultCountry } = smsFormConfig();
  const items = request.messages.map((item): BatchItem => {
    const phone = normalizePhone(item.to, defaultCountry);
    if (!phone.ok) return { invalid: phone.error };
    // The schema made sure one of the two bodies is there.
    const { statusCallback } = item;
    const from = item.from ?? request.from;
    return { to: phone.e164, body: item.body ?? request.body!, from, statusCallback, apiKeyId: apiKeyId ?? undefined };
  });
  let idempotency: { key: string; fingerprint: string } | undefined;
  if (idempotencyKey !== undefined) {
    // One namespace with POST /messages: a key used there is another request.
    if ((await messageHasApiRef(userId, idempotencyKey)) || (await scheduleHasApiRef(userId, idempotencyKey)))
      throw idempotencyConflict();
    idempotency = {
      key: idempotencyKey,
      fingerprint: createHash("sha256").update(JSON.stringify(request)).digest("hex"),
    };
  }
  let batch: Awaited<ReturnType<typeof queueBatch>>;
  try {
    batch = await queueBatch(userId, items, idempotency);
  } catch (error) {
    if (error instanceof BatchKeyConflictError) throw idempotencyConflict();
    throw error;
  }
  const results = batch.outcomes.map((outcome, index) => {
    if (outcome.queued) {
      const body = request.messages[index].body ?? request.body!;
      return { index, status: "queued" as const, message: asAccepted(outcome.message, body) };
    }
    const { code, message } = outcome;
    return { index, status: "refused" as const, to: request.messages[index].to, error: { code, message } };
  });
  const queued = results.filter((r) => r.status === "queued").length;
  return {
    result: {
      total: results.length,
      queued,
      refused: results.length - queued,
      credits: batch.credits,
      balance: batch.balance,
      results,
    },
    replayed: batch.replayed,
  };
}

/**
 * What sending costs, per message and in all: countSegments times the price per segment to each
 * recipient (a recipient left out, or not a number: the price of destinations without their own).
 */
export async function quoteApi(request: { body?: string; to?: string; messages?: { body?: string; to?: string }[] }) {
  const prices = await currentPriceList();
  const { defaultCountry } = smsFormConfig();
  const perSegmentTo = (to: string | undefined) => {
    const phone = to === undefined ? null : normalizePhone(to, defaultCountry);
    return creditsPerSegmentIn(prices, phone?.ok ? phone.e164 : ANY_DESTINATION);
  };
  const wanted = request.messages
    ? request.messages.map((item) => ({ body: item.body ?? request.body!, to: item.to }))
    : [{ body: request.body!, to: request.to }];
  const items = wanted.map(({ body, to }) => {
    const { encoding, characters, segments, nonGsm } = countSegments(body);
    const creditsPerSegment = perSegmentTo(to);
    const credits = segments * creditsPerSegment;
    return { encoding, characters, segments, creditsPerSegment, credits, nonGsmCharacters: nonGsm };
  });
  return {
    messages: items.length,
    segments: items.reduce((sum, item) => sum + item.segments, 0),
    credits: items.reduce((sum, item) => sum + item.credits, 0),
    encoding: items.some((item) => item.encoding === "UCS-2") ? ("UCS-2" as const) : ("GSM-7" as const),
    nonGsmCharacters: [...new Set(items.flatMap((item) => item.nonGsmCharacters))],
    items,
  };
}
