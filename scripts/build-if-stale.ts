// The production build (build/) bundles app/: it is made again when anything it is built from is
// newer, so `git pull && npm start`, the bench and the fault run never serve an older app's pages.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const BUILT = "build/server/index.js";
const SOURCES = ["app", "public", "react-router.config.ts", "vite.config.ts", "package-lock.json"];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Why the build under `root` must be made (again), or null when it is newer than all its sources. */
export function buildNeeded(root = process.cwd()): "missing" | "stale" | null {
  const built = resolve(root, BUILT);
  if (!existsSync(built)) return "missing";
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestChange(resolve(root, source)) >= builtAt) ? "stale" : null;
}

/** Builds when build/ is missing or older than its sources; false when the build failed. */
export function buildIfStale(say: (line: string) => void): boolean {
  const needed = buildNeeded();
  if (!needed) return true;
  say(
    needed === "missing"
      ? "building the app (first start)..."
      : "building the app (its sources changed since the last build)...",
  );
  return spawnSync("npx", ["react-router", "build"], { stdio: "inherit" }).status === 0;
}
