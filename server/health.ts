import { answer, type Extension } from "#server/http.ts";
import { checkDatabase } from "#app/modules/health/health.server.ts";
import { redisForRequest } from "#app/queue/redis.server.ts";
import { log } from "#app/utils/log.server.ts";

const HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" };

// Checks come every few seconds: the cause is logged when it changes, not at every check.
let lastCause: string | undefined;

/**
 * GET /healthz: 200 when SQLite and Redis both answer, for start scripts and load balancers. Anyone
 * can ask, so a failure says only "unavailable"; the cause goes to the log.
 */
export const health: Extension = async (req, res) => {
  if (req.url !== "/healthz") return false;
  try {
    checkDatabase();
    await redisForRequest().ping();
    lastCause = undefined;
    answer(res, 200, HEADERS, '{"status":"ok"}');
  } catch (error) {
    const cause = (error as Error).message;
    if (cause !== lastCause) log("error", "health", `unavailable: ${cause}`);
    lastCause = cause;
    answer(res, 503, HEADERS, '{"status":"unavailable"}');
  }
  return true;
};
