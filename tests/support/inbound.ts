// Helpers for inbound SMS tests: the stored rows, and PDU bodies as phones' SMSCs send them.
import { desc, eq } from "drizzle-orm";
import { getDb } from "#app/db/client.server.ts";
import { inboundMessages, inboundOutbox } from "#app/db/schema/inbound.ts";

export async function inboundFrom(phone: string) {
  return await getDb()
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.fromPhone, phone))
    .orderBy(desc(inboundMessages.id))
    .all();
}

export async function inboundOutboxHas(id: number): Promise<boolean> {
  return (await getDb().select().from(inboundOutbox).where(eq(inboundOutbox.messageId, id)).get()) !== undefined;
}

/** UTF-16BE, as UCS-2 travels. */
export const ucs2 = (text: string) => Buffer.from(text, "utf16le").swap16();

/** A concatenation UDH with a 16-bit reference (IEI 0x08). */
export function udh16(reference: number, total: number, sequence: number): Buffer {
  return Buffer.from([0x06, 0x08, 0x04, reference >> 8, reference & 0xff, total, sequence]);
}

let phones = 0;

/** A fresh phone number per test, so rows of other tests never match. */
export function newPhone(): string {
  phones += 1;
  return `+1202555${String(3000 + phones).padStart(4, "0")}`;
}
