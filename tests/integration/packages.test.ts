import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#app/db/client.server.ts";
import { packages, storedImages } from "#app/db/schema/shop.ts";
import { readStoredImage } from "#app/modules/shop/images.server.ts";
import { deletePackage, getPackage, type PackageInput, savePackage } from "#app/modules/shop/packages.server.ts";
import { IMAGE_MESSAGES } from "#app/modules/shop/packages.ts";
import { appended, jpeg, png } from "#tests/support/images.ts";

// Images live in the database (decision 132): a package's image is stored under its path's last part.
const storedNames = async () =>
  (await getDb().select({ name: storedImages.name }).from(storedImages).all()).map((row) => row.name);
const isStored = async (image: string) => (await readStoredImage(image.split("/").pop()!)) !== null;
const byName = async (name: string) => await getDb().select().from(packages).where(eq(packages.name, name)).get();

const input = (name: string): PackageInput => ({
  name,
  description: "",
  specialTag: "",
  category: "beverages",
  priceCents: 1000,
  credits: 100,
});

async function created(name: string) {
  expect(await savePackage(null, input(name), new Blob([png(40, 30)]))).toEqual({ ok: true });
  return (await byName(name))!;
}

describe("savePackage", () => {
  it("stores a new package's image and points the row at it", async () => {
    const item = await created("Stored");
    expect(item.image).toMatch(/^\/uploads\/packages\/[0-9a-f-]{36}\.png$/);
    expect(await isStored(item.image)).toBe(true);
  });

  it("refuses a new package without an image, or with one that fails the upload rules, writing nothing", async () => {
    const before = await storedNames();
    expect(await savePackage(null, input("Imageless"), undefined)).toEqual({
      ok: false,
      imageError: IMAGE_MESSAGES.required,
    });
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']);
    expect(await savePackage(null, input("Svg"), svg)).toEqual({ ok: false, imageError: IMAGE_MESSAGES.type });
    const polyglot = new Blob([appended(jpeg(60, 40), "<?php system($_GET['c']); ?>")]);
    expect(await savePackage(null, input("Polyglot"), polyglot)).toEqual({
      ok: false,
      imageError: IMAGE_MESSAGES.damaged,
    });
    expect(await savePackage(null, input("Huge"), new Blob([png(20_000, 20_000)]))).toEqual({
      ok: false,
      imageError: IMAGE_MESSAGES.dimensions,
    });
    expect(await storedNames()).toEqual(before);
    expect(await Promise.all(["Imageless", "Svg", "Polyglot", "Huge"].map(byName))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("keeps the image on an update without one; a refused image changes nothing", async () => {
    const item = await created("Kept");
    expect(await savePackage(item.id, { ...input("Kept"), priceCents: 2500 }, undefined)).toEqual({ ok: true });
    expect(await getPackage(item.id)).toMatchObject({ priceCents: 2500, image: item.image });
    const refused = await savePackage(item.id, { ...input("Kept"), priceCents: 9900 }, new Blob(["not an image"]));
    expect(refused).toEqual({ ok: false, imageError: IMAGE_MESSAGES.type });
    expect(await getPackage(item.id)).toMatchObject({ priceCents: 2500, image: item.image });
    expect(await isStored(item.image)).toBe(true);
  });

  it("replaces the image, keeping the old one while another package still shows it", async () => {
    const item = await created("Replaced");
    const sharing = await created("Sharing");
    await getDb().update(packages).set({ image: item.image }).where(eq(packages.id, sharing.id)).run();
    await savePackage(item.id, input("Replaced"), new Blob([jpeg(60, 40)]));
    const replaced = (await getPackage(item.id))!;
    expect(replaced.image).toMatch(/\.jpg$/);
    expect(await isStored(replaced.image)).toBe(true);
    expect(await isStored(item.image)).toBe(true);
    await savePackage(sharing.id, input("Sharing"), new Blob([png(10, 10)]));
    expect(await isStored(item.image)).toBe(false);
  });
});

describe("deletePackage", () => {
  it("deletes the row and its image, unless another package shows the same image", async () => {
    const first = await created("First");
    const second = await created("Second");
    await getDb().update(packages).set({ image: first.image }).where(eq(packages.id, second.id)).run();
    expect((await deletePackage(first.id))?.id).toBe(first.id);
    expect(await getPackage(first.id)).toBeUndefined();
    expect(await isStored(first.image)).toBe(true);
    await deletePackage(second.id);
    expect(await isStored(first.image)).toBe(false);
    expect(await deletePackage(second.id)).toBeUndefined();
  });
});
