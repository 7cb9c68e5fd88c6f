import { describe, expect, it } from "vitest";
import { createContact, getContact, listContacts } from "#app/modules/contacts/contacts.server.ts";
import { createGroup, listGroupChoices } from "#app/modules/contacts/groups.server.ts";
import { ImportFileError, previewImport, runImport, saveImportUpload } from "#app/modules/contacts/import.server.ts";
import { action as importAction, loader as importLoader } from "#app/routes/sms/import-contacts.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { contactCount } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

const encode = (text: string) => new TextEncoder().encode(text);

const CSV = [
  "Full Name;Mobile;E-mail;Groups",
  "Ann Able;+1 202 555 0101;ann@example.com;Customers",
  ";+1 202 555 0102;nobody@example.com;", // no name
  "Carl Cole;555-CALL-NOW;carl@example.com;", // bad number
  "Dina Dale;+44 7911 123456;not-an-email;Customers|VIP", // bad email
  "Eve Early;(202) 555-0101;eve@example.com;", // same number as row 2
  "Fay Fox;+44 7911 123457;fay@example.com;VIP | Staff",
  "Old Name;+1 202 555 0103;new@example.com;",
].join("\n");

describe("CSV import", () => {
  it("imports good rows, updates known numbers, and reports every bad row with its number and reason", async () => {
    const user = await createTestUser();
    const customers = await createGroup(user.id, { name: "customers", description: "Existing" });
    const existing = await createContact(user.id, {
      name: "Before",
      phone: "+12025550103",
      email: "old@example.com",
      groupIds: [],
    });

    const upload = await call(
      importAction,
      makeRequest("/sms/importContacts", {
        user,
        form: { intent: "upload", file: new File([CSV], "people.csv", { type: "text/csv" }) },
      }),
    );
    const location = locationOf(upload)!;
    expect(location).toMatch(/^\/sms\/importContacts\?file=[0-9a-f-]{36}$/);
    const token = new URL(location, "http://x").searchParams.get("file")!;

    const preview = dataOf<{ view: string; preview: Record<string, unknown> }>(
      await call(importLoader, makeRequest(location, { user })),
    );
    expect(preview.view).toBe("preview");
    expect(preview.preview).toMatchObject({
      fileName: "people.csv",
      rows: 8,
      columns: ["Column 1: Full Name", "Column 2: Mobile", "Column 3: E-mail", "Column 4: Groups"],
      guess: { hasHeader: true, name: 0, phone: 1, email: 2, group: 3 },
    });

    const imported = await call(
      importAction,
      makeRequest("/sms/importContacts", {
        user,
        form: { intent: "import", token, hasHeader: "on", name: "0", phone: "1", email: "2", group: "3" },
      }),
    );
    const reportUrl = locationOf(imported)!;
    expect(reportUrl).toMatch(/^\/sms\/importContacts\?report=\d+$/);
    const { report } = dataOf<{ report: Record<string, unknown> }>(
      await call(importLoader, makeRequest(reportUrl, { user })),
    );
    expect(report).toMatchObject({
      fileName: "people.csv",
      rows: 7,
      imported: 2,
      updated: 1,
      skipped: 4,
      skippedRows: [
        { row: 3, reason: "Name is required" },
        { row: 4, reason: '"555-CALL-NOW" is not a valid phone number' },
        { row: 5, reason: "Enter a valid email address" },
        { row: 6, reason: "Same phone number as row 2" },
      ],
    });

    const { contacts } = await listContacts(user.id, { page: 1 });
    expect(contacts.map((c) => [c.name, c.phone, c.groups.map((g) => g.name)])).toEqual([
      ["Ann Able", "+12025550101", ["customers"]],
      ["Fay Fox", "+447911123457", ["Staff", "VIP"]],
      ["Old Name", "+12025550103", []],
    ]);
    expect(await getContact(user.id, existing.id)).toMatchObject({ name: "Old Name", email: "new@example.com" });
    // "Customers" found the existing group in any letter case; the others were created.
    expect((await listGroupChoices(user.id)).map((g) => g.name)).toEqual(["customers", "Staff", "VIP"]);
    expect((await listGroupChoices(user.id))[0].id).toBe(customers.id);
    // The upload is gone once imported.
    expect(await previewImport(user.id, token)).toBeNull();
    expect(statusOf(await call(importLoader, makeRequest(location, { user })))).toBe(404);
  });

  it("imports 10,000 rows in batches", async () => {
    const user = await createTestUser();
    const lines = ["name,phone,email"];
    for (let i = 0; i < 10_000; i++)
      lines.push(`Person ${i},+1 202 555 ${String(i).padStart(4, "0")},p${i}@example.com`);
    const token = await saveImportUpload(user.id, "big.csv", encode(lines.join("\r\n")));
    const report = await runImport(user.id, token, { hasHeader: true, name: 0, phone: 1, email: 2 });
    expect(report).toMatchObject({ rows: 10_000, imported: 10_000, updated: 0, skipped: 0 });
    expect(await contactCount(user.id)).toBe(10_000);
  }, 60_000);

  it("refuses files it cannot read, and a mapping without the required columns", async () => {
    const user = await createTestUser();
    await expect(saveImportUpload(user.id, "empty.csv", encode(""))).rejects.toThrow(ImportFileError);
    await expect(
      saveImportUpload(user.id, "image.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0])),
    ).rejects.toThrow("binary");
    await expect(saveImportUpload(user.id, "broken.csv", encode('a,b\n"unclosed,2\n'))).rejects.toThrow(
      /could not be read as CSV/,
    );
    const tooBig = await call(
      importAction,
      makeRequest("/sms/importContacts", {
        user,
        form: {
          intent: "upload",
          file: new File([new Uint8Array(getEnv().CSV_IMPORT_MAX_BYTES + 20_000)], "huge.csv"),
        },
      }),
    );
    expect(statusOf(tooBig)).toBe(413);

    const token = await saveImportUpload(user.id, "x.csv", encode("a,b,c\n1,2,3\n"));
    const unmapped = await call(
      importAction,
      makeRequest("/sms/importContacts", { user, form: { intent: "import", token, name: "0" } }),
    );
    expect(statusOf(unmapped)).toBe(400);
    expect(dataOf<{ error: Record<string, string[]> }>(unmapped).error).toMatchObject({
      phone: ["Choose the column that holds the phone numbers"],
      email: ["Choose the column that holds the email addresses"],
    });
    // Without a header row, every row is data.
    expect((await previewImport(user.id, token))?.guess).toEqual({ hasHeader: false });
    // Cancel deletes the upload.
    const discarded = await call(
      importAction,
      makeRequest("/sms/importContacts", { user, form: { intent: "discard", token } }),
    );
    expect(locationOf(discarded)).toBe("/sms/accountContacts");
    expect(await previewImport(user.id, token)).toBeNull();
  });

  it("reads Windows-1252 files", async () => {
    const user = await createTestUser();
    const latin1 = Uint8Array.from(
      [..."name,phone,email\nJos", 0xe9, ..."  ,+12025550150,jose@example.com\n"].map((c) =>
        typeof c === "number" ? c : c.charCodeAt(0),
      ),
    );
    const token = await saveImportUpload(user.id, "win.csv", latin1);
    expect((await runImport(user.id, token, { hasHeader: true, name: 0, phone: 1, email: 2 })).imported).toBe(1);
    expect((await listContacts(user.id, { page: 1 })).contacts[0].name).toBe("José");
  });
});
