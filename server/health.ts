import { answer, type Extension } from "./http.ts";
import { sqlite } from "../app/db/client.server.ts";
import { redisForRequest } from "../app/queue/redis.server.ts";

/** GET /healthz: 200 when SQLite and Redis both answer, for start scripts and load balancers. */
export const health: Extension = async (req, res) => {
  if (req.url !== "/healthz") return false;
  try {
    sqlite.prepare("select 1").get();
    await redisForRequest().ping();
    answer(res, 200, { "Content-Type": "application/json", "Cache-Control": "no-store" }, '{"status":"ok"}');
  } catch (error) {
    const body = JSON.stringify({ status: "unavailable", error: (error as Error).message });
    answer(res, 503, { "Content-Type": "application/json", "Cache-Control": "no-store" }, body);
  }
  return true;
};
