// The Node flags the app's processes run with are those of `npm start` (package.json): the bench and
// the fault run start the web and the workers with them, so they measure and test what production runs.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The flags of package.json's `start` script, e.g. ["--experimental-async-context-frame", "--v8-pool-size=1"]. */
export function appNodeFlags(root = process.cwd()): string[] {
  const { scripts } = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).filter((word) => word.startsWith("--"));
}
