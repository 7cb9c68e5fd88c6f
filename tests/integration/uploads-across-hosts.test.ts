// Uploads live in the database (decision 132): a CSV uploaded through one web process is previewed
// and imported through another, with a DATA_DIR of its own on PostgreSQL (another host); a package
// image is served from the table once the uploads folder is gone.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { usesPostgres } from "#app/db/client.server.ts";
import { listPendingUploads } from "#app/modules/contacts/import.server.ts";
import { inspectImage, storePackageImage } from "#app/modules/shop/images.server.ts";
import { importContactsAction } from "#app/routes/sms/import-contacts.server.ts";
import { serveUploads } from "#server/uploads.ts";
import { runToEnd, stopChildren } from "#tests/support/child-processes.ts";
import { contactCount } from "#tests/support/contacts.ts";
import { png } from "#tests/support/images.ts";
import { BASE, createTestUser, locationOf, makeRequest } from "#tests/support/requests.ts";

const dataDir = process.env.DATA_DIR!;
const otherHostDir = mkdtempSync(join(tmpdir(), "smsgw-other-host-"));
const children: ChildProcess[] = [];
afterAll(async () => {
  await stopChildren(children);
  rmSync(otherHostDir, { recursive: true, force: true });
});

it("a CSV uploaded through one web process is previewed and imported through another", async () => {
  const user = await createTestUser();
  const csv = "Name,Phone,Email\nAnn,+12025550101,ann@example.com\nBob,+12025550102,bob@example.com\n";
  const uploaded = await importContactsAction(
    makeRequest("/sms/importContacts", {
      form: { intent: "upload", file: new File([csv], "people.csv", { type: "text/csv" }) },
    }),
    user.id,
  );
  const token = new URL(locationOf(uploaded)!, BASE).searchParams.get("file")!;
  expect(token).toMatch(/^[0-9a-f-]{36}$/);
  // PostgreSQL: another host, with a DATA_DIR of its own. SQLite keeps its database in DATA_DIR (one host).
  const env = { ...process.env, DATA_DIR: usesPostgres() ? otherHostDir : dataDir };
  const other = await runToEnd("tests/support/import-child.ts", [String(user.id), token], env, children);
  expect(other.code, other.output).toBe(0);
  expect(JSON.parse(other.output.trim().split("\n").pop()!)).toMatchObject({
    preview: { token, fileName: "people.csv", rows: 3, guess: { hasHeader: true, name: 0, phone: 1, email: 2 } },
    location: expect.stringMatching(/^\/sms\/importContacts\?report=\d+$/),
  });
  expect(await contactCount(user.id)).toBe(2);
  // Imported: the upload is gone, and no host's disk ever held it.
  expect(await listPendingUploads(user.id)).toEqual([]);
  expect(readdirSync(dataDir)).not.toContain("imports");
  expect(readdirSync(otherHostDir)).not.toContain("imports");
}, 60_000);

it("a package image is served from the database once the uploads folder is gone", async () => {
  const bytes = png(40, 30);
  const checked = inspectImage(bytes);
  if (!checked.ok) throw new Error(checked.error);
  const path = await storePackageImage(bytes, checked.info);
  const uploads = join(dataDir, "uploads");
  rmSync(uploads, { recursive: true, force: true });

  const handler = serveUploads(uploads);
  const server = createServer((req, res) => handler(req, res, () => res.writeHead(404).end("not here")));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    const head = await fetch(`${base}${path}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length")]).toEqual([200, String(bytes.byteLength)]);
    // A name that was never stored is not served, from the table or the (missing) folder.
    expect((await fetch(`${base}${path.replace(/[0-9a-f]{12}\./, "000000000000.")}`)).status).toBe(404);
  } finally {
    await new Promise((done) => server.close(done));
  }
});
