// docs/architecture.md's folder ladder is the domain's real import order (decision 118): every
// folder of app/modules/ (subfolders too) sits on one rung and imports only folders on lower rungs.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";
import { repoRoot as root, sourceFiles } from "#tests/support/source-files.ts";

const modules = join(root, "app/modules");

/** Folder name -> rung, from the table's rows `| <rung> | `folder`, `folder` | ... |`. */
function ladder(): Map<string, number> {
  const text = readFileSync(join(root, "docs/architecture.md"), "utf8");
  const start = text.indexOf("## The folder ladder");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  const rungs = new Map<string, number>();
  for (const [, rung, folders] of section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm))
    for (const [, folder] of folders.matchAll(/`([^`]+)`/g)) {
      expect(rungs.has(folder), `${folder} is on one rung only`).toBe(false);
      rungs.set(folder, Number(rung));
    }
  return rungs;
}

const files = sourceFiles("app/modules").map((file) => join(root, file));
const folderOf = (file: string) => relative(modules, dirname(file));

it("names every folder of app/modules/ on one rung, and no other", () => {
  expect([...ladder().keys()].sort()).toEqual([...new Set(files.map(folderOf))].sort());
});

it("has every import between domain folders go down the ladder", () => {
  const rungs = ladder();
  const climbing = files.flatMap((file) => {
    const from = folderOf(file);
    const imported = readFileSync(file, "utf8").matchAll(/(?:from |import\(|import )"#app\/modules\/([^"]+)\/[^/"]+"/g);
    return [...imported]
      .map(([, to]) => to)
      .filter((to) => to !== from && !(rungs.get(to)! < rungs.get(from)!))
      .map((to) => `${from} (rung ${rungs.get(from)}) imports ${to} (rung ${rungs.get(to)})`);
  });
  expect([...new Set(climbing)]).toEqual([]);
});
