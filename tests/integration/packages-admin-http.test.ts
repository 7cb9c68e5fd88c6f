// The package form through the real HTTP server: a body that is not well-formed multipart, or an
// image that is not one, is a message next to the Image field (400), never the error page.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { startHttpServer, stopHttpServer } from "#server/http.ts";
import { sameOrigin } from "#server/same-origin.ts";
import { createTestUser } from "#tests/support/requests.ts";

const UNREADABLE = "The upload could not be read: choose the image again and save";
const BOUNDARY = "----smsgw-test-boundary";

let server: Server;
let base: string;
let cookie: string;

beforeAll(async () => {
  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.LOG_LEVEL = "silent";
  server = await startHttpServer([sameOrigin]);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cookie = (await createTestUser("admin")).cookie;
  // The development server compiles the route on its first request: not part of any test's time.
  expect((await fetch(`${base}/menuItem/menuItemUpsert`, { headers: { Cookie: cookie } })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  if (server) await stopHttpServer(server, 1_000);
});

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const FIELDS = [
  ["name", "Broken Upload"],
  ["description", "A test package"],
  ["specialTag", ""],
  ["category", "beverages"],
  ["price", "12.50"],
  ["credits", "250"],
]
  .map(([name, value]) => field(name, value))
  .join("");
const imagePart = (bytes: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="pack.png"\r\nContent-Type: image/png\r\n\r\n${bytes}\r\n`;

function post(body: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return fetch(`${base}/menuItem/menuItemUpsert`, {
    method: "POST",
    headers: { "Content-Type": contentType, Cookie: cookie },
    // Bytes as written (an image's bytes are not UTF-8 text).
    body: Buffer.from(body, "latin1"),
  });
}

const packageCount = async () => (await getDb().select().from(packages).all()).length;

describe("a malformed upload on the package form", () => {
  it.each([
    [
      "a body cut off before its closing boundary",
      `${FIELDS}--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="p.png"\r\n\r\n\x89PNG`,
    ],
    [
      "more parts than the form has",
      `${Array.from({ length: 30 }, (_, i) => field(`f${i}`, "x")).join("")}--${BOUNDARY}--\r\n`,
    ],
  ])("%s: a message next to the image, 400", async (_, body) => {
    const before = await packageCount();
    const answer = await post(body);
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain(UNREADABLE);
    expect(html).toContain("<h1");
    expect(await packageCount()).toBe(before);
  });

  it("multipart without a boundary: the same message", async () => {
    const answer = await post(`${FIELDS}--${BOUNDARY}--\r\n`, "multipart/form-data");
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(UNREADABLE);
  });

  it("a broken image: the damaged-image message, 400", async () => {
    const answer = await post(`${FIELDS}${imagePart("\x89PNG\r\n\x1a\nnot really a png")}--${BOUNDARY}--\r\n`);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("This image file is damaged");
  });
});
