import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";
import { getEnv } from "#app/utils/env.server.ts";
import { countLogLine } from "#app/utils/work-counts.server.ts";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type Level = Exclude<keyof typeof LEVELS, "silent">;

/**
 * What every line written while handling one HTTP request or one queue job carries. The HTTP
 * server and the worker set it (runWithLogContext); the server also reads the request's start
 * time and route from it for its metrics.
 */
export type LogContext = {
  requestId?: string;
  jobId?: string;
  queue?: string;
  /** The route that answered (an API route's path template), for the request's metrics. */
  route?: string;
  /** performance.now() when the request arrived. */
  startedAt?: number;
};

type LogState = { contexts: AsyncLocalStorage<LogContext>; json?: Logger; capturing?: boolean };

// One state per process, not per copy of this module: the server build (and Vite in development)
// loads its own copy of app/, whose lines must see the context server/http.ts set.
const STATE = Symbol.for("smsgw.log");
function state(): LogState {
  const global = globalThis as { [STATE]?: LogState };
  return (global[STATE] ??= { contexts: new AsyncLocalStorage<LogContext>() });
}

/** Runs `work` with `context` on every line it logs, across its awaits. */
export function runWithLogContext<T>(context: LogContext, work: () => T): T {
  return state().contexts.run(context, work);
}

/** The current request's or job's context, if any (the object itself: the API handler adds its route). */
export function logContext(): LogContext | undefined {
  return state().contexts.getStore();
}

/**
 * For a job's data: the id of the HTTP request adding it, so that the worker's lines for the job
 * carry it too (read before the payload is parsed; not part of any payload's schema).
 */
export function originRequest(): { originRequestId?: string } {
  const requestId = state().contexts.getStore()?.requestId;
  return requestId ? { originRequestId: requestId } : {};
}

/** True when a line at this level would be written: check it before building an expensive message. */
export function logs(level: Level): boolean {
  return LEVELS[level] >= LEVELS[getEnv().LOG_LEVEL];
}

// Never in a line whatever a caller passes: pino replaces these fields of `fields` and `detail`.
const REDACTED = ["password", "token", "secret", "apiKey", "key", "authorization", "cookie", "body"];

function createJsonLogger(destination: DestinationStream): Logger {
  return pino(
    {
      // The level is checked by log() against LOG_LEVEL at each call (tests change it while running).
      level: "debug",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED.flatMap((name) => [name, `*.${name}`]), censor: "[redacted]" },
    },
    destination,
  );
}

/** Standard output, each line counted (decision 113). */
function countedStdout(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: true });
  const write = stdout.write;
  stdout.write = function (this: typeof stdout, line: string) {
    countLogLine(Buffer.byteLength(line));
    return write.call(this, line);
  };
  return stdout;
}

function json(): Logger {
  return (state().json ??= createJsonLogger(countedStdout()));
}

function isFields(extra: unknown): extra is Record<string, unknown> {
  return typeof extra === "object" && extra !== null && !(extra instanceof Error) && !Array.isArray(extra);
}

function readableContext(context: LogContext | undefined): string {
  if (!context) return "";
  let text = "";
  if (context.requestId) text += ` req=${context.requestId}`;
  if (context.jobId) text += ` job=${context.queue}/${context.jobId}`;
  return text;
}

/**
 * One line per event, filtered by LOG_LEVEL, with the request's or job's id. LOG_FORMAT=json (the
 * default in production): a JSON object per line through pino (time, level, scope, msg, requestId or
 * jobId, the fields, `err` with its stack). Otherwise readable: `[scope] message key=value req=...`,
 * an error printed after it. `extra`: an Error, or fields for the line. Never pass a secret, a
 * password, an API key or a message body.
 */
export function log(level: Level, scope: string, message: string, extra?: unknown): void {
  if (LEVELS[level] < LEVELS[getEnv().LOG_LEVEL]) return;
  const context = state().contexts.getStore();
  if (state().capturing || getEnv().LOG_FORMAT === "json") {
    const { requestId, jobId, queue } = context ?? {};
    const line: Record<string, unknown> = { scope, requestId, jobId, queue };
    if (isFields(extra)) Object.assign(line, extra);
    else if (extra instanceof Error) line.err = extra;
    else if (extra !== undefined) line.detail = extra;
    json()[level](line, message);
    return;
  }
  let line = `[${scope}] ${message}`;
  if (isFields(extra)) for (const [name, value] of Object.entries(extra)) line += ` ${name}=${String(value)}`;
  line += readableContext(context);
  countLogLine(Buffer.byteLength(line) + 1);
  const print = level === "error" || level === "warn" ? console.error : console.log;
  if (extra === undefined || isFields(extra)) print(line);
  else print(line, extra);
}

/**
 * Tests: the JSON lines written from now on, whatever LOG_FORMAT says; stop() goes back to stdout.
 */
export function captureLogs(): { lines: string[]; stop: () => void } {
  const lines: string[] = [];
  state().capturing = true;
  state().json = createJsonLogger({ write: (line: string) => void lines.push(line) });
  return {
    lines,
    stop: () => {
      state().capturing = false;
      state().json = undefined;
    },
  };
}
