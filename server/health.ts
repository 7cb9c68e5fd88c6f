import { answer, type Extension } from "#server/http.ts";
import { checkReadiness } from "#app/modules/health/readiness.server.ts";
import { log } from "#app/utils/log.server.ts";

const HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" };

// Checks come every few seconds: the causes are logged when they change, not at every check.
let lastCauses = "";

/**
 * GET /healthz: 200 while the process answers (liveness: restart it when this fails).
 * GET /readyz: 200 when the deployment can take work, else 503 with short reasons (readiness:
 * send no traffic meanwhile). Anyone can ask, so the reasons are fixed phrases; causes go to the log.
 */
export const health: Extension = async (req, res) => {
  if (req.url === "/healthz") {
    answer(res, 200, HEADERS, '{"status":"ok"}');
    return true;
  }
  if (req.url !== "/readyz") return false;
  const { ready, reasons, causes } = await checkReadiness();
  const described = causes.join("; ");
  if (described !== lastCauses) {
    if (ready) log("info", "health", "ready");
    else log("warn", "health", `not ready: ${described}`);
  }
  lastCauses = described;
  if (ready) answer(res, 200, HEADERS, '{"status":"ready"}');
  else answer(res, 503, HEADERS, JSON.stringify({ status: "unavailable", reasons }));
  return true;
};
