import { getEnv } from "#app/utils/env.server.ts";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

/** One line per event, filtered by LOG_LEVEL: `[scope] message`. */
export function log(level: Level, scope: string, message: string, extra?: unknown): void {
  if (LEVELS[level] < LEVELS[getEnv().LOG_LEVEL]) return;
  const line = `[${scope}] ${message}`;
  if (level === "error" || level === "warn") console.error(line, ...(extra === undefined ? [] : [extra]));
  else console.log(line, ...(extra === undefined ? [] : [extra]));
}
