// CSV import caps: columns, rows and row size refused at the first cell over them, uploads per hour
// (429 with Retry-After), files waiting per account, and the contact and group quotas on import.
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { importUploads } from "#app/db/schema/contacts.ts";
import { createContact } from "#app/modules/contacts/contacts.server.ts";
import { listGroupChoices } from "#app/modules/contacts/groups.server.ts";
import { importContactsAction } from "#app/routes/sms/import-contacts.server.ts";
import {
  IMPORT_MAX_COLUMNS,
  listPendingUploads,
  previewImport,
  runImport,
  saveImportUpload,
} from "#app/modules/contacts/import.server.ts";
import { loader as importLoader } from "#app/routes/sms/import-contacts.tsx";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { contactCount } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

// Read at the first getEnv(), after the imports (nothing reads the environment at import).
process.env.CSV_IMPORT_MAX_ROWS = "10";
process.env.CSV_IMPORT_UPLOADS_PER_HOUR = "4";
process.env.QUOTA_PENDING_UPLOADS = "2";
process.env.QUOTA_CONTACTS = "3";
process.env.QUOTA_GROUPS = "1";

const encode = (text: string) => new TextEncoder().encode(text);
const upload = (userId: number, text: string) =>
  importContactsAction(
    makeRequest("/sms/importContacts", {
      form: { intent: "upload", file: new File([text], "people.csv", { type: "text/csv" }) },
    }),
    userId,
  );
const discard = (userId: number, token: string) =>
  importContactsAction(makeRequest("/sms/importContacts", { form: { intent: "discard", token } }), userId);
const tokenOf = (result: unknown) => new URL(locationOf(result)!, "http://x").searchParams.get("file")!;
const uploadError = (result: unknown) => dataOf<{ uploadError: string }>(result).uploadError;
const rows = (n: number, first = 0) =>
  Array.from(
    { length: n },
    (_, i) => `Person ${first + i},+1202555${String(3000 + first + i)},p${first + i}@example.com`,
  ).join("\n");

describe("CSV caps", () => {
  it("refuses a row of 100,000 columns at its first row, without reading on, and keeps no file", async () => {
    const user = await createTestUser();
    // Cell 100,000 holds a stray quote: a parser that read the whole row would fail on it instead.
    const wide = `${",".repeat(99_998)}x"y\nAnn,+12025550101,ann@example.com\n`;
    const refused = await upload(user.id, wide);
    expect(statusOf(refused)).toBe(400);
    expect(uploadError(refused)).toBe(
      `Row 1 has more than ${IMPORT_MAX_COLUMNS} columns. A contacts file needs a few (name, phone number, email, group): ` +
        "check that this is the right file and that its cells are separated by commas, semicolons or tabs.",
    );
    expect(await listPendingUploads(user.id)).toEqual([]);
    // The most columns a file may have is fine.
    await expect(
      saveImportUpload(user.id, "ok.csv", encode(`${"a,".repeat(IMPORT_MAX_COLUMNS - 1)}a\n`)),
    ).resolves.toBeTypeOf("string");
  });

  it("refuses a file of more rows than CSV_IMPORT_MAX_ROWS; that many is fine", async () => {
    const user = await createTestUser();
    const refused = await upload(user.id, rows(11));
    expect(statusOf(refused)).toBe(400);
    expect(uploadError(refused)).toBe(
      "The file has more than 10 rows, the most one import takes. Split it into smaller files.",
    );
    expect(locationOf(await upload(user.id, rows(10)))).toMatch(/\?file=/);
  });

  it("refuses a row longer than the row size cap", async () => {
    const user = await createTestUser();
    const refused = await upload(user.id, `${rows(1)}\nLong,+12025550199,${"x".repeat(20_000)}@example.com\n`);
    expect(statusOf(refused)).toBe(400);
    expect(uploadError(refused)).toBe(
      "Row 2 is longer than 10,000 characters: a contacts file has short rows. Check that this is the right file.",
    );
  });
});

describe("uploads per account", () => {
  it("counts every upload in the hour: past CSV_IMPORT_UPLOADS_PER_HOUR it is 429 with Retry-After and the message", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 4; i++) {
      const uploaded = await upload(user.id, rows(1));
      await discard(user.id, tokenOf(uploaded));
    }
    const refused = await upload(user.id, rows(1));
    expect(statusOf(refused)).toBe(429);
    const retryAfter = Number((refused as { init: { headers: Record<string, string> } }).init.headers["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(uploadError(refused)).toBe(
      "You have uploaded 4 files in the last hour, the most allowed. Try again in 60 minutes.",
    );
    expect(await listPendingUploads(user.id)).toEqual([]);
    // Per account: another one uploads.
    const other = await createTestUser();
    expect(locationOf(await upload(other.id, rows(1)))).toMatch(/\?file=/);
  });

  it("refuses a new upload while QUOTA_PENDING_UPLOADS files wait; the upload screen lists them; discarding one frees a place", async () => {
    const user = await createTestUser();
    const first = tokenOf(await upload(user.id, rows(1)));
    tokenOf(await upload(user.id, rows(1)));
    const refused = await upload(user.id, rows(1));
    expect(statusOf(refused)).toBe(400);
    expect(uploadError(refused)).toBe(
      "Your account has reached its limit of 2 uploaded files waiting to be imported. Import or discard one of them (Import Contacts) before uploading another.",
    );
    const screen = dataOf<{ pending: { token: string; fileName: string }[] }>(
      await call(importLoader, makeRequest("/sms/importContacts", { user })),
    );
    expect(screen.pending.map((p) => p.fileName)).toEqual(["people.csv", "people.csv"]);
    expect(screen.pending.map((p) => p.token)).toContain(first);
    await discard(user.id, first);
    expect(locationOf(await upload(user.id, rows(1)))).toMatch(/\?file=/);
  });
});

describe("uploads never imported", () => {
  it("are gone after a day: not listed, not previewed, not counted, and removed by the next upload", async () => {
    const user = await createTestUser();
    const now = Date.now();
    const stored = async () =>
      (await getDb().select({ n: count() }).from(importUploads).where(eq(importUploads.userId, user.id)).get())!.n;
    try {
      setClock(() => now - 24 * 3600_000 - 1);
      const old = await saveImportUpload(user.id, "old.csv", encode(rows(1)));
      await saveImportUpload(user.id, "old2.csv", encode(rows(1)));
      setClock(() => now);
      expect(await listPendingUploads(user.id)).toEqual([]);
      expect(await previewImport(user.id, old)).toBeNull();
      expect(await stored()).toBe(2);
      // QUOTA_PENDING_UPLOADS is 2: the old ones take no place.
      const fresh = await saveImportUpload(user.id, "new.csv", encode(rows(1)));
      expect(await stored()).toBe(1);
      expect((await listPendingUploads(user.id)).map((p) => p.token)).toEqual([fresh]);
    } finally {
      resetClock();
    }
  });
});

describe("quotas on import", () => {
  it("imports new contacts up to QUOTA_CONTACTS, still updates known numbers, and skips the rest with the reason", async () => {
    const user = await createTestUser();
    await createContact(user.id, { name: "Known", phone: "+12025553000", email: "known@example.com", groupIds: [] });
    const token = await saveImportUpload(user.id, "people.csv", encode(rows(5)));
    const report = await runImport(user.id, token, { hasHeader: false, name: 0, phone: 1, email: 2 });
    const full =
      "Your account has reached its limit of 3 contacts. Delete contacts you no longer need before adding more.";
    expect(report).toMatchObject({
      rows: 5,
      imported: 2,
      updated: 1,
      skipped: 2,
      skippedRows: [
        { row: 4, reason: full },
        { row: 5, reason: full },
      ],
    });
    expect(await contactCount(user.id)).toBe(3);
  });

  it("creates new groups up to QUOTA_GROUPS and skips the rows that name one past it", async () => {
    const user = await createTestUser();
    const csv = ["Ann,+12025554001,ann@example.com,Alpha", "Bob,+12025554002,bob@example.com,Beta"].join("\n");
    const report = await runImport(user.id, await saveImportUpload(user.id, "people.csv", encode(csv)), {
      hasHeader: false,
      name: 0,
      phone: 1,
      email: 2,
      group: 3,
    });
    expect(report).toMatchObject({
      imported: 1,
      skipped: 1,
      skippedRows: [
        {
          row: 2,
          reason:
            'Group "Beta" was not created. Your account has reached its limit of 1 groups. Delete a group you no longer need before creating another.',
        },
      ],
    });
    expect((await listGroupChoices(user.id)).map((g) => g.name)).toEqual(["Alpha"]);
  });
});
