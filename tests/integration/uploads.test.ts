import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectImage, storePackageImage } from "#app/modules/shop/images.server.ts";
import { serveUploads } from "#server/uploads.ts";
import { jpeg, png } from "#tests/support/images.ts";

const dir = join(process.env.DATA_DIR!, "uploads");
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  mkdirSync(join(dir, "packages"), { recursive: true });
  const handler = serveUploads(dir);
  const server = createServer((req, res) => handler(req, res, () => res.writeHead(404).end("not here")));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((done) => server.close(() => done()));
});
afterAll(() => close());

async function store(bytes: Uint8Array): Promise<string> {
  const checked = inspectImage(bytes);
  if (!checked.ok) throw new Error(checked.error);
  return storePackageImage(bytes, checked.info);
}

describe("serving uploaded images", () => {
  it("serves a stored image with the type its bytes were checked to be, never sniffed, inert as a document", async () => {
    for (const [bytes, type] of [
      [png(40, 30), "image/png"],
      [jpeg(40, 30), "image/jpeg"],
    ] as const) {
      const path = await store(bytes);
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    }
  });

  it("serves an image stored as a file before images moved to the database, with the same headers", async () => {
    const name = `${randomUUID()}.jpg`;
    const bytes = jpeg(20, 10);
    writeFileSync(join(dir, "packages", name), bytes);
    const response = await fetch(`${base}/uploads/packages/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it("serves nothing else from the uploads folder, however it is asked for", async () => {
    const name = randomUUID();
    // Files that could only get there some other way: a page, an SVG, a PNG name that is not ours.
    writeFileSync(join(dir, "packages", `${name}.html`), "<script>alert(1)</script>");
    writeFileSync(join(dir, "packages", `${name}.svg`), "<svg onload=alert(1)/>");
    writeFileSync(join(dir, "packages", "logo.png"), png(1, 1));
    writeFileSync(join(dir, "secret.txt"), "not public");
    for (const path of [
      `/uploads/packages/${name}.html`,
      `/uploads/packages/${name}.svg`,
      `/uploads/packages/${name}.PNG`,
      "/uploads/packages/logo.png",
      "/uploads/secret.txt",
      `/uploads/packages/..%2fsecret.txt`,
      `/uploads/packages/../secret.txt`,
      `/uploads/packages/${name}.png/../../secret.txt`,
      "/uploads/packages/",
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe("not here");
    }
  });
});
