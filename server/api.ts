import type { IncomingMessage } from "node:http";
import { type ApiRequest, type ApiResponse, bodyLimitOf, handleApiRequest } from "#app/api/handler.server.ts";
import { API_BASE } from "#app/api/define-route.ts";
import { answer, type Extension } from "#server/http.ts";

function isApiPath(url: string): boolean {
  return (
    url.startsWith(API_BASE) &&
    (url.length === API_BASE.length || url[API_BASE.length] === "/" || url[API_BASE.length] === "?")
  );
}

/** Reads the body up to the limit; past it, stops reading and says so. */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) return Promise.resolve({ body: Buffer.alloc(0), tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve({ body: Buffer.alloc(0), tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve({ body: Buffer.concat(chunks, size), tooLarge: false }));
    req.once("error", reject);
  });
}

/** /api/v1/* served by the API core on plain Node http, before React Router. */
export function apiExtension(handle: (request: ApiRequest) => Promise<ApiResponse> = handleApiRequest): Extension {
  return async (req, res) => {
    const url = req.url ?? "";
    if (!isApiPath(url)) return false;
    const method = req.method ?? "GET";
    const hasBody = method !== "GET" && method !== "HEAD" && method !== "DELETE";
    const { body, tooLarge } = hasBody
      ? await readBody(req, bodyLimitOf(method, url))
      : { body: undefined, tooLarge: false };
    const response = await handle({
      method,
      path: url,
      headers: req.headers,
      body,
      bodyTooLarge: tooLarge,
    });
    // A body we stopped reading cannot be followed by another request on this connection.
    if (tooLarge) response.headers.Connection = "close";
    answer(res, response.status, response.headers, response.body);
    return true;
  };
}

export const api = apiExtension();

/** For process shutdown, once the HTTP server has stopped: the API's requests still gathering in a batch run. */
export const shutdownApi = () => handleApiRequest.shutdown();
