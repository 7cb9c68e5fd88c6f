import { describe, expect, it } from "vitest";
import { importContactsAction } from "#app/routes/sms/import-contacts.server.ts";
import { action as optOutsAction } from "#app/routes/sms/opt-outs.tsx";
import { previewImport, saveImportUpload } from "#app/modules/contacts/import.server.ts";
import { getToast } from "#app/web/toast.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { contactCount } from "#tests/support/contacts.ts";
import { call, createTestUser, dataOf, locationOf, makeRequest, statusOf } from "#tests/support/requests.ts";

const post = (userId: number, form: Record<string, string | Blob>) =>
  importContactsAction(makeRequest("/sms/importContacts", { form }), userId);
const csv = (text: string, name = "people.csv") => new File([text], name, { type: "text/csv" });
const toastOf = async (result: unknown) =>
  (
    await getToast(
      new Request("http://localhost", {
        headers: { Cookie: ((result as Response).headers.get("Set-Cookie") ?? "").split(";")[0] },
      }),
    )
  ).toast?.description;

describe("importContactsAction", () => {
  it("upload goes to the preview of the saved file; import goes to the report with a toast", async () => {
    const user = await createTestUser();
    const uploaded = await post(user.id, {
      intent: "upload",
      file: csv("name,phone,email\nAnn,+12025550101,ann@example.com\n"),
    });
    const token = new URL(locationOf(uploaded)!, "http://x").searchParams.get("file")!;
    expect(locationOf(uploaded)).toBe(`/sms/importContacts?file=${token}`);
    expect((await previewImport(user.id, token))?.fileName).toBe("people.csv");

    const imported = await post(user.id, {
      intent: "import",
      token,
      hasHeader: "on",
      name: "0",
      phone: "1",
      email: "2",
    });
    expect(locationOf(imported)).toMatch(/^\/sms\/importContacts\?report=\d+$/);
    expect(await toastOf(imported)).toBe("Imported 1 contact, updated 0, skipped 0.");
    expect(await contactCount(user.id)).toBe(1);
  });

  it("keeps upload errors beside the file field: none chosen, unreadable, too large", async () => {
    const user = await createTestUser();
    const none = await post(user.id, { intent: "upload", file: new File([], "") });
    expect(statusOf(none)).toBe(400);
    expect(dataOf(none)).toEqual({ uploadError: "Choose a CSV file to upload." });
    const binary = await post(user.id, {
      intent: "upload",
      file: new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0])], "image.png"),
    });
    expect(statusOf(binary)).toBe(400);
    expect(dataOf<{ uploadError: string }>(binary).uploadError).toMatch(/binary/);
    const huge = await post(user.id, {
      intent: "upload",
      file: csv("x".repeat(getEnv().CSV_IMPORT_MAX_BYTES + 20_000)),
    });
    expect(statusOf(huge)).toBe(413);
    expect(dataOf(huge)).toEqual({
      uploadError: `The upload is larger than ${Math.floor(getEnv().CSV_IMPORT_MAX_BYTES / 1_000_000)} MB.`,
    });
  });

  it("answers a cut-off or malformed multipart body beside the file field (400), for the CSV import and the opt-out upload", async () => {
    const user = await createTestUser();
    const unreadable = { uploadError: "The upload could not be read: choose the file again and upload it." };
    const bodies: [string, string][] = [
      ["multipart/form-data", "--x\r\nContent-Disposition: form-data; name=intent\r\n\r\nupload"],
      [
        "multipart/form-data; boundary=x",
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nAnn,+1202',
      ],
    ];
    for (const [contentType, body] of bodies) {
      for (const [path, action] of [
        ["/sms/importContacts", (request: Request) => importContactsAction(request, user.id)],
        ["/sms/optOuts", (request: Request) => call(optOutsAction, request)],
      ] as const) {
        const headers = makeRequest(path, { user, headers: { "Content-Type": contentType } }).headers;
        const answer = await action(new Request(new URL(path, "http://localhost"), { method: "POST", headers, body }));
        expect(statusOf(answer)).toBe(400);
        expect(dataOf(answer)).toEqual(unreadable);
      }
    }
    expect(await contactCount(user.id)).toBe(0);
  });

  it("discard deletes the upload and goes back to the contacts; an unknown intent is a mapping error", async () => {
    const user = await createTestUser();
    const token = await saveImportUpload(user.id, "x.csv", new TextEncoder().encode("a,b,c\n1,2,3\n"));
    expect(statusOf(await post(user.id, { intent: "other", token, name: "0", phone: "1", email: "2" }))).toBe(400);
    expect(locationOf(await post(user.id, { intent: "discard", token }))).toBe("/sms/accountContacts");
    expect(await previewImport(user.id, token)).toBeNull();
  });

  it("importing another user's upload is a 404 and imports nothing", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const token = await saveImportUpload(
      owner.id,
      "x.csv",
      new TextEncoder().encode("Ann,+12025550101,ann@example.com\n"),
    );
    let thrown: unknown;
    try {
      await post(other.id, { intent: "import", token, name: "0", phone: "1", email: "2" });
    } catch (error) {
      thrown = error;
    }
    expect(statusOf(thrown)).toBe(404);
    expect(await contactCount(other.id)).toBe(0);
    expect(await previewImport(owner.id, token)).not.toBeNull();
  });
});
