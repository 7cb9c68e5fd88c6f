// What this process's work costs, counted as it happens (decision 113): SQL statements, commits,
// rows written, Redis commands, log lines and bytes, errors created. Plain numbers, always on (a
// counter is a few nanoseconds beside a statement's microseconds); the bench and the budgets test
// read them from GET /metrics, a worker's through its heartbeat.

export type WorkCounts = {
  /** SQL statements run (prepared statements' run/get/all/iterate, exec calls), BEGIN and COMMIT included. */
  statements: number;
  /** Transactions committed. */
  commits: number;
  /**
   * Write transactions begun again because another process held the write lock: each one an
   * SqliteError (SQLITE_BUSY) also counted in `exceptions` (inTransactionWithoutStalling).
   */
  busyRetries: number;
  /** Rows inserted, updated or deleted, triggers' included (SQLite's total_changes). */
  rowsWritten: number;
  /** Commands sent to Redis on any connection (each in a pipeline or MULTI counts). */
  redisCommands: number;
  /** Lines written by log() and their bytes. */
  logLines: number;
  logBytes: number;
  /** Errors that captured a stack through Error.captureStackTrace (SqliteError among them; not plain `new Error()`). */
  exceptions: number;
};

type WorkState = { counts: WorkCounts; rowsWritten?: () => number; errorsHooked?: boolean };

// One state per process, not per copy of this module (the server build loads its own copy of app/).
const STATE = Symbol.for("smsgw.work-counts");
function state(): WorkState {
  const global = globalThis as { [STATE]?: WorkState };
  return (global[STATE] ??= {
    counts: {
      statements: 0,
      commits: 0,
      busyRetries: 0,
      rowsWritten: 0,
      redisCommands: 0,
      logLines: 0,
      logBytes: 0,
      exceptions: 0,
    },
  });
}

/** The live counters: the places that do the work add to them. */
export function workCounters(): WorkCounts {
  hookErrors();
  return state().counts;
}

/** The database connection tells how many rows it has written (read only when the counts are). */
export function countRowsWith(rowsWritten: () => number): void {
  state().rowsWritten = rowsWritten;
}

/** A copy of this process's counts since it started. */
export function workCounts(): WorkCounts {
  const { counts, rowsWritten } = state();
  return { ...counts, rowsWritten: rowsWritten?.() ?? 0 };
}

/** Adds one line of `bytes` to the log counts. */
export function countLogLine(bytes: number): void {
  const { counts } = state();
  counts.logLines += 1;
  counts.logBytes += bytes;
}

/**
 * Counts the errors that capture their stack through Error.captureStackTrace. V8 builds plain
 * `new Error()` and its own TypeErrors without a hook a program can see; SqliteError (the one
 * the hot path met, decision 113) and some of ioredis's errors call it.
 */
function hookErrors(): void {
  const current = state();
  if (current.errorsHooked) return;
  current.errorsHooked = true;
  const capture = Error.captureStackTrace.bind(Error);
  // Without a constructor to hide frames from, the stack starts below this wrapper, as it did.
  Error.captureStackTrace = function countedCapture(target: object, constructor?: (...args: never[]) => unknown) {
    current.counts.exceptions += 1;
    capture(target, constructor ?? countedCapture);
  };
}
