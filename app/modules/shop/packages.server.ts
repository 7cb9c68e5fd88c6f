import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { clock } from "#app/utils/clock.server.ts";
import { likeContains } from "#app/utils/sql.server.ts";
import { inspectImage, removePackageImage, storePackageImage } from "#app/modules/shop/images.server.ts";
import { type HomeFilters, IMAGE_MESSAGES, type PackageCategory } from "#app/modules/shop/packages.ts";

export type Package = typeof packages.$inferSelect;
export type PackageInput = {
  name: string;
  description: string;
  specialTag: string;
  category: PackageCategory;
  priceCents: number;
  credits: number;
};

// Natural order, so "500" comes before "1,000" in Name A - Z.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
const withoutGrouping = (name: string) => name.replace(/(?<=\d),(?=\d{3})/g, "");
const byName = { compare: (a: string, b: string) => collator.compare(withoutGrouping(a), withoutGrouping(b)) };

/** Home's list: filtered in SQL, sorted here (a shop has a handful of packages). */
export async function listPackages(filters: HomeFilters): Promise<Package[]> {
  const where: SQL[] = [];
  // "1000" finds "1,000": thousands separators are ignored on both sides.
  if (filters.q) where.push(likeContains(sql`replace(${packages.name}, ',', '')`, filters.q.replaceAll(",", "")));
  if (filters.category) where.push(eq(packages.category, filters.category));
  const rows = await getDb()
    .select()
    .from(packages)
    .where(where.length ? and(...where) : undefined)
    .all();
  const compare: Record<HomeFilters["sort"], (a: Package, b: Package) => number> = {
    "name-asc": (a, b) => byName.compare(a.name, b.name),
    "name-desc": (a, b) => byName.compare(b.name, a.name),
    "price-asc": (a, b) => a.priceCents - b.priceCents || byName.compare(a.name, b.name),
    "price-desc": (a, b) => b.priceCents - a.priceCents || byName.compare(a.name, b.name),
  };
  return rows.sort(compare[filters.sort]);
}

/** Admin list: every package, newest last. */
export async function listAllPackages(): Promise<Package[]> {
  return await getDb().select().from(packages).orderBy(packages.id).all();
}

export async function getPackage(id: number): Promise<Package | undefined> {
  return await getDb().select().from(packages).where(eq(packages.id, id)).get();
}

/**
 * Creates (id null) or updates a package with the image posted beside it. The image is checked by
 * its bytes and stored before the row is written; a new package needs one, an update without one
 * keeps its image, and an image replaced by a new one is deleted unless another package shows it.
 */
export async function savePackage(
  id: number | null,
  input: PackageInput,
  image: Blob | undefined,
): Promise<{ ok: true } | { ok: false; imageError: string }> {
  if (!image && id === null) return { ok: false, imageError: IMAGE_MESSAGES.required };
  let stored: string | undefined;
  if (image) {
    const bytes = new Uint8Array(await image.arrayBuffer());
    const checked = inspectImage(bytes);
    if (!checked.ok) return { ok: false, imageError: checked.error };
    stored = await storePackageImage(bytes, checked.info);
  }
  if (id === null) {
    await insertPackage({ ...input, image: stored! });
  } else {
    const before = await updatePackageRow(id, { ...input, ...(stored && { image: stored }) });
    if (stored && before?.image) await removeUnusedImage(before.image);
  }
  return { ok: true };
}

/** Cart lines go with it; orders keep their own copy of name and price. Its image file goes too, unless another package shows it. */
export async function deletePackage(id: number): Promise<Package | undefined> {
  const deleted = await withTx((tx) => tx.delete(packages).where(eq(packages.id, id)).returning().get());
  if (deleted?.image) await removeUnusedImage(deleted.image);
  return deleted;
}

async function insertPackage(input: PackageInput & { image: string }): Promise<Package> {
  return await withTx((tx) =>
    tx
      .insert(packages)
      .values({ ...input, createdAt: clock.date() })
      .returning()
      .get(),
  );
}

/** Returns the package before the change (to clean up a replaced image), or undefined. */
async function updatePackageRow(id: number, input: PackageInput & { image?: string }): Promise<Package | undefined> {
  return await withTx(async (tx) => {
    const before = await tx.select().from(packages).where(eq(packages.id, id)).get();
    if (!before) return undefined;
    await tx.update(packages).set(input).where(eq(packages.id, id)).run();
    return before;
  });
}

/** Rows may share an image path, so a file goes only once no package shows it. */
async function removeUnusedImage(image: string): Promise<void> {
  const inUse = await getDb().select({ id: packages.id }).from(packages).where(eq(packages.image, image)).get();
  if (!inUse) await removePackageImage(image);
}
