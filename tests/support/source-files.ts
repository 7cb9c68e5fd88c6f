// The repository's TypeScript sources, for tests that read the code itself (a rule no type can hold).
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root. */
export const repoRoot = resolve(import.meta.dirname, "../..");

/** Every .ts and .tsx file under these folders of the repository, as paths from its root. */
export function sourceFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => join(dir, name)),
  );
}
