import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { cartItems, orderLines, packages, storedImages } from "#app/db/schema/shop.ts";
import { readStoredImage } from "#app/modules/shop/images.server.ts";
import { getPackage } from "#app/modules/shop/packages.server.ts";
import { action as listAction, loader as listLoader } from "#app/routes/shop/menu-item-list.tsx";
import { action as upsertAction } from "#app/routes/shop/menu-item-upsert.tsx";
import { getToast } from "#app/web/toast.server.ts";
import { appended, jpeg, jpegComment, png, pngChunk } from "#tests/support/images.ts";
import { createTestUser, dataOf, locationOf, makeRequest, statusOf, type TestUser } from "#tests/support/requests.ts";
import { addToCart, call, placeOrder } from "#tests/support/shop.ts";

type Reply = { error?: Record<string, string[] | null> };

const admin = await createTestUser("admin");
const realPng = readFileSync(resolve("public/images/packages/credits-100.png"));
const storedImageNames = async () =>
  (await getDb().select({ name: storedImages.name }).from(storedImages).all()).map((image) => image.name);

const fields = (extra: Record<string, string | Blob> = {}) => ({
  name: "Starter Plus",
  description: "A test package",
  specialTag: "New",
  category: "beverages",
  price: "12.50",
  credits: "250",
  ...extra,
});

function upsert(form: Record<string, string | Blob>, id?: number, user: TestUser = admin) {
  const path = id ? `/menuItem/menuItemUpsert/${id}` : "/menuItem/menuItemUpsert";
  return call(upsertAction, makeRequest(path, { user, form }), { id: id ? String(id) : undefined });
}

const toastOf = async (result: unknown) =>
  (
    await getToast(
      new Request("http://localhost", {
        headers: { Cookie: ((result as Response).headers.get("Set-Cookie") ?? "").split(";")[0] },
      }),
    )
  ).toast?.description;

describe("package images", () => {
  it("stores a real PNG in the database with a server-made name, and prices in cents", async () => {
    const before = await storedImageNames();
    const result = await upsert(
      fields({ image: new File([realPng], "../../etc/My Photo.PNG", { type: "image/png" }) }),
    );
    expect(locationOf(result)).toBe("/menuItem/menuitemlist");
    expect(await toastOf(result)).toBe("Menu Item created/updated successfully");
    const created = (await getDb().select().from(packages).all()).find((p) => p.name === "Starter Plus")!;
    expect(created).toMatchObject({ priceCents: 1250, credits: 250, category: "beverages", specialTag: "New" });
    expect(created.image).toMatch(/^\/uploads\/packages\/[0-9a-f-]{36}\.png$/);
    const added = (await storedImageNames()).filter((f) => !before.includes(f));
    expect(added).toEqual([created.image.split("/").pop()]);
    expect((await readStoredImage(added[0]!))?.bytes).toEqual(realPng);
  });

  it("refuses an HTML file renamed to .png: the content decides, and nothing is stored", async () => {
    const before = await storedImageNames();
    const html = new File(["<!doctype html><script>alert(1)</script>"], "photo.png", { type: "image/png" });
    const result = await upsert(fields({ name: "Renamed", image: html }));
    expect(statusOf(result)).toBe(400);
    expect(dataOf<Reply>(result).error?.image).toEqual(["File Must be in jpeg, jpg or png"]);
    expect(await storedImageNames()).toEqual(before);
    expect((await getDb().select().from(packages).all()).some((p) => p.name === "Renamed")).toBe(false);
  });

  it("refuses a 1,024,001-byte file and accepts one byte under the limit", async () => {
    const big = new File([png(100, 100, { length: 1_024_001 })], "big.png", { type: "image/png" });
    const refused = await upsert(fields({ name: "Too Big", image: big }));
    expect(statusOf(refused)).toBe(413);
    expect(dataOf<Reply>(refused).error?.image).toEqual(["File Must be less than 1 MB"]);
    const exactly = await upsert(
      fields({ name: "Exactly", image: new File([png(10, 10, { length: 1_024_000 })], "a.png") }),
    );
    expect(dataOf<Reply>(exactly).error?.image).toEqual(["File Must be less than 1 MB"]);
    const under = await upsert(
      fields({ name: "Just Under", image: new File([png(10, 10, { length: 1_023_999 })], "a.png") }),
    );
    expect(locationOf(under)).toBe("/menuItem/menuitemlist");
  });

  it("stops reading an oversized upload while it streams in", async () => {
    const boundary = "----smsgw-test";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        // An endless upload: only the parser giving up ends it.
        pulled += chunk.length;
        if (pulled > 50 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/menuItem/menuItemUpsert", {
      method: "POST",
      body,
      duplex: "half",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        Cookie: admin.cookie,
        "x-smsgw-client-ip": "127.0.0.1",
      },
    } as RequestInit);
    const result = await call(upsertAction, request, {});
    expect(dataOf<Reply>(result).error?.image).toEqual(["File Must be less than 1 MB"]);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it("refuses a PNG that declares a huge bitmap", async () => {
    const bomb = new File([png(20_000, 20_000)], "bomb.png", { type: "image/png" });
    const result = await upsert(fields({ name: "Bomb", image: bomb }));
    expect(dataOf<Reply>(result).error?.image).toEqual(["Image must be at most 10,000 pixels on each side"]);
  });

  it("refuses polyglots and an SVG renamed .png, storing nothing", async () => {
    const before = await storedImageNames();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
    const hostile: [string, Uint8Array<ArrayBuffer> | string, string][] = [
      ["logo.png", svg, "File Must be in jpeg, jpg or png"],
      ["logo.svg", svg, "File Must be in jpeg, jpg or png"],
      [
        "pack.png",
        appended(realPng, "<html><script>alert(1)</script></html>"),
        "This image file is damaged or holds more than a picture: save it again from an image editor",
      ],
      [
        "pack.jpg",
        appended(jpeg(600, 400), "<?php system($_GET['c']); ?>"),
        "This image file is damaged or holds more than a picture: save it again from an image editor",
      ],
      [
        "pack.png",
        png(600, 400, { extra: [pngChunk("tEXt", "Comment\0<script>alert(1)</script>")] }),
        "This image file holds text such as a script or web page: save it again from an image editor",
      ],
      [
        "pack.jpg",
        jpeg(600, 400, 0xc0, [jpegComment("<html><body onload=alert(1)>")]),
        "This image file holds text such as a script or web page: save it again from an image editor",
      ],
    ];
    for (const [name, bytes, error] of hostile) {
      const result = await upsert(
        fields({ name: `Hostile ${name}`, image: new File([bytes], name, { type: "image/png" }) }),
      );
      expect(statusOf(result), name).toBe(400);
      expect(dataOf<Reply>(result).error?.image, name).toEqual([error]);
    }
    expect(await storedImageNames()).toEqual(before);
    expect((await getDb().select().from(packages).all()).some((p) => p.name.startsWith("Hostile"))).toBe(false);
  });

  it("requires an image on create only, and name and price always", async () => {
    const missing = await upsert(fields({ name: "No Image" }));
    expect(dataOf<Reply>(missing).error?.image).toEqual(["Please upload an image"]);
    const emptyFile = await upsert(
      fields({ name: "No Image", image: new File([], "", { type: "application/octet-stream" }) }),
    );
    expect(dataOf<Reply>(emptyFile).error?.image).toEqual(["Please upload an image"]);
    const blank = await upsert(fields({ name: "", price: "", image: new File([realPng], "a.png") }));
    expect(dataOf<Reply>(blank).error).toMatchObject({ name: ["Name is required"], price: ["Price is required"] });
  });

  it("updates without a new image and keeps the old one; a new image replaces the old file", async () => {
    await upsert(fields({ name: "Updatable", image: new File([realPng], "a.png") }));
    const item = (await getDb().select().from(packages).all()).find((p) => p.name === "Updatable")!;
    const kept = await upsert(fields({ name: "Updated", price: "99" }), item.id);
    expect(locationOf(kept)).toBe("/menuItem/menuitemlist");
    expect(await getPackage(item.id)).toMatchObject({ name: "Updated", priceCents: 9900, image: item.image });
    await upsert(fields({ name: "Updated", image: new File([realPng], "b.png") }), item.id);
    const replaced = (await getPackage(item.id))!;
    expect(replaced.image).not.toBe(item.image);
    expect(await readStoredImage(item.image.split("/").pop()!)).toBeNull();
    expect(statusOf(await upsert(fields(), 999_999))).toBe(404);
  });

  it("is for admins only", async () => {
    const customer = await createTestUser();
    expect(locationOf(await upsert(fields({ image: new File([realPng], "a.png") }), undefined, customer))).toBe(
      "/accessDenied",
    );
    expect(locationOf(await call(listLoader, makeRequest("/menuItem/menuitemlist", { user: customer })))).toBe(
      "/accessDenied",
    );
  });
});

describe("deleting a package", () => {
  it("asks first through the URL, then deletes; carts lose the line, orders keep their copy", async () => {
    await upsert(fields({ name: "Doomed", image: new File([realPng], "a.png") }));
    const item = (await getDb().select().from(packages).all()).find((p) => p.name === "Doomed")!;
    const customer = await createTestUser();
    await addToCart(customer, item.id, 1);
    const orderId = await placeOrder(customer);
    await addToCart(customer, item.id, 1);

    const page = dataOf<{ confirming: { id: number; name: string } | null }>(
      await call(listLoader, makeRequest(`/menuItem/menuitemlist?delete=${item.id}`, { user: admin })),
    );
    expect(page.confirming).toEqual({ id: item.id, name: "Doomed" });

    const result = await call(
      listAction,
      makeRequest("/menuItem/menuitemlist", { user: admin, form: { intent: "delete", id: String(item.id) } }),
    );
    expect(await toastOf(result)).toBe("Menu Item Deleted Successfully");
    expect(await getPackage(item.id)).toBeUndefined();
    expect((await getDb().select().from(cartItems).all()).some((c) => c.packageId === item.id)).toBe(false);
    expect((await getDb().select().from(orderLines).all()).find((l) => l.orderId === orderId)?.itemName).toBe("Doomed");
    expect(await readStoredImage(item.image.split("/").pop()!)).toBeNull();

    const again = await call(
      listAction,
      makeRequest("/menuItem/menuitemlist", { user: admin, form: { intent: "delete", id: String(item.id) } }),
    );
    expect(await toastOf(again)).toBe("Error encountered.");
  });
});
