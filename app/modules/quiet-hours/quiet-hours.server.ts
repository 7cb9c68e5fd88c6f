// The account's quiet hours and the messages they hold back (decision record 063).
import { eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { quietHours } from "#app/db/schema/quiet-hours.ts";
import { sqlText, statements } from "#app/db/statements.server.ts";
import { clock } from "#app/utils/clock.server.ts";
import { zoneOfNumber } from "#app/modules/quiet-hours/recipient-zone.ts";
import { type QuietWindow, quietUntil } from "#app/modules/quiet-hours/window.ts";

export type QuietHoursSetting = QuietWindow & { enabled: boolean };

/** What the settings form shows: the saved setting, else off with 21:00-08:00 to start from. */
export async function getQuietHours(userId: number): Promise<QuietHoursSetting> {
  const row = await getDb().select().from(quietHours).where(eq(quietHours.userId, userId)).get();
  return row
    ? { enabled: row.enabled, startMinute: row.startMinute, endMinute: row.endMinute }
    : { enabled: false, startMinute: 21 * 60, endMinute: 8 * 60 };
}

export async function saveQuietHours(userId: number, setting: QuietHoursSetting): Promise<void> {
  const values = { ...setting, updatedAt: clock.date() };
  await withTx((tx) =>
    tx
      .insert(quietHours)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: quietHours.userId, set: values })
      .run(),
  );
}

const queries = statements({
  // Its own rowid look-up, no join: this is all an account without quiet hours pays per batch.
  enabledWindow: sqlText<[number], QuietWindow>({
    sqlite:
      "select start_minute as startMinute, end_minute as endMinute from quiet_hours where user_id = ? and enabled = 1",
    postgres: `select start_minute as "startMinute", end_minute as "endMinute" from quiet_hours where user_id = $1 and enabled`,
  }),
  accountZone: sqlText<[number], { timeZone: string }>("select time_zone as timeZone from users where id = ?"),
  contactZones: sqlText<[number, string, string], { id: number; phone: string; timeZone: string }>({
    sqlite: `select id, phone, time_zone as timeZone from contacts
   where user_id = ? and time_zone is not null
     and (id in (select value from jsonb_each(?)) or phone in (select value from jsonb_each(?)))`,
    postgres: `select id, phone, time_zone as "timeZone" from contacts
   where user_id = $1 and time_zone is not null
     and (id = any(array(select value::bigint from jsonb_array_elements_text($2::jsonb)))
       or phone = any(array(select value from jsonb_array_elements_text($3::jsonb))))`,
  }),
  heldInGroupSend: sqlText<[number], { messages: number; until: number | null }>(
    `select count(*) as messages, max(deferred_until) as until from sms_messages
   where group_send_id = ? and status = 'queued' and deferred_until is not null`,
  ),
});

/** What quiet hours read of a message about to be queued (the send path's NewMessage). */
type HeldMessage = { to: string; contactId?: number; respectQuietHours?: boolean; deferredUntil?: number };

/**
 * The messages with `deferredUntil` set on those that ask for quiet hours (`respectQuietHours`)
 * and would reach their recipient inside the account's window, in the recipient's zone: the
 * contact's own, else the number's country's (recipient-zone.ts), else the account's. The same
 * array when quiet hours are off or nobody asks: one look-up per batch.
 */
export async function holdForQuietHours<M extends HeldMessage>(
  userId: number,
  messages: M[],
  now: number,
): Promise<(M & Pick<HeldMessage, "deferredUntil">)[]> {
  if (!messages.some((message) => message.respectQuietHours)) return messages;
  const window = await queries.enabledWindow.get(userId);
  if (!window) return messages;
  const ownZone = (await queries.accountZone.get(userId))?.timeZone ?? "UTC";
  const asking = messages.filter((message) => message.respectQuietHours);
  const ids = asking.flatMap((message) => (message.contactId === undefined ? [] : [message.contactId]));
  const phones = asking.flatMap((message) => (message.contactId === undefined ? [message.to] : []));
  const byContact = new Map<number, string>();
  const byPhone = new Map<string, string>();
  for (const row of await queries.contactZones.all(userId, JSON.stringify(ids), JSON.stringify(phones))) {
    byContact.set(row.id, row.timeZone);
    byPhone.set(row.phone, row.timeZone);
  }
  // Every recipient in one zone waits until the same instant.
  const untilByZone = new Map<string, number | null>();
  const until = (zone: string) => {
    if (!untilByZone.has(zone)) untilByZone.set(zone, quietUntil(window, zone, now));
    return untilByZone.get(zone)!;
  };
  return messages.map((message) => {
    if (!message.respectQuietHours) return message;
    const own = message.contactId === undefined ? byPhone.get(message.to) : byContact.get(message.contactId);
    const deferredUntil = until(own ?? zoneOfNumber(message.to) ?? ownZone);
    return deferredUntil === null ? message : { ...message, deferredUntil };
  });
}

/** A group send's messages quiet hours still hold, and when the last of them goes; null for none. */
export async function heldByQuietHours(groupSendId: number): Promise<{ messages: number; until: number } | null> {
  const held = (await queries.heldInGroupSend.get(groupSendId))!;
  return held.until === null ? null : { messages: held.messages, until: held.until };
}
