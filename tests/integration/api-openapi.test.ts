import { getEnv } from "#app/utils/env.server.ts";
import { Validator } from "@seriousme/openapi-schema-validator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_ERRORS } from "#app/api/errors.ts";
import { createApiHandler } from "#app/api/handler.server.ts";
import { routeErrorCodes } from "#app/api/openapi.server.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";

type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

async function fetchDocument(headers: Record<string, string> = {}) {
  const answer = await callApi("GET", "/api/v1/openapi.json", { headers });
  expect(answer.status).toBe(200);
  return answer.json as Document;
}

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document, served without a key", async () => {
    const document = await fetchDocument();
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(document.servers[0].url).toBe(getEnv().appUrl);
  });

  it("lists exactly the routes the server answers", async () => {
    const document = await fetchDocument();
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const table = API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual(table.sort());

    // Every documented operation is answered (not 404/405); every other method on its path is a 405.
    const customer = await apiCustomer(5);
    for (const [path, methods] of Object.entries(document.paths)) {
      const concrete = path.replace("{id}", "1");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const answer = await callApi(method, concrete, { key: customer.key, json: method === "POST" ? {} : undefined });
        if (!(method.toLowerCase() in methods)) {
          expect(answer.status, `${method} ${path}`).toBe(405);
          continue;
        }
        expect(answer.status, `${method} ${path}`).not.toBe(405);
        // A 404 here may only be "no such message", never "no such endpoint".
        if (answer.status === 404) expect(answer.json.error.message).not.toMatch(/^No API endpoint/);
      }
    }
  });

  it("documents each route's errors with the shared error shape", async () => {
    const document = await fetchDocument();
    for (const route of API_ROUTES) {
      const responses = document.paths[route.path][route.method.toLowerCase()].responses;
      const statuses = Object.keys(responses).filter((s) => !s.startsWith("2"));
      expect(statuses, route.operationId).toEqual([
        ...new Set(routeErrorCodes(route).map((code) => String(API_ERRORS[code].status))),
      ]);
      // Codes that share a status are each listed with an example.
      for (const status of statuses) {
        const codes = routeErrorCodes(route).filter((code) => String(API_ERRORS[code].status) === status);
        const content = (
          responses[status] as {
            content: { "application/json": { example?: unknown; examples?: Record<string, unknown> } };
          }
        ).content["application/json"];
        if (codes.length > 1)
          expect(Object.keys(content.examples ?? {}), `${route.operationId} ${status}`).toEqual(codes);
        else
          expect(content.example, `${route.operationId} ${status}`).toEqual({
            error: { code: codes[0], message: API_ERRORS[codes[0]].description },
          });
      }
    }
  });

  it("names APP_URL, whatever the Host and forwarded headers say", async () => {
    const spoofed = await fetchDocument({
      host: "gateway.example:8443",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example",
    });
    expect(spoofed.servers[0].url).toBe(getEnv().appUrl);
    expect((await fetchDocument({ host: "bad host/`rm -rf`" })).servers[0].url).toBe(getEnv().appUrl);
  });
});

describe("hostile input", () => {
  // A large limit: the property runs hundreds of requests with one key.
  const handle = createApiHandler({ ratePerMinute: 1_000_000 });
  const documentedStatuses = new Map(
    API_ROUTES.map((route) => [
      `${route.method} ${route.path}`,
      new Set([route.success.status, ...routeErrorCodes(route).map((c) => API_ERRORS[c].status)]),
    ]),
  );

  const json = fc.jsonValue({ maxDepth: 4 });
  const bodies = fc.oneof(
    json.map((value) => JSON.stringify(value)),
    fc
      .record(
        { to: fc.oneof(fc.string(), json), body: fc.oneof(fc.string({ unit: "grapheme" }), json) },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.constantFrom(
      "[".repeat(5000),
      '{"__proto__":{"x":1},"to":"+12025550123","body":"hi"}',
      '{"constructor":{"prototype":1}}',
      "\u0000",
      "1e400",
    ),
  );
  const contentTypes = fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "",
    "application/JSON;charset=UTF-8",
    "multipart/form-data",
  );

  it("never answers 500 or an undocumented status, whatever the body, query or path", async () => {
    const customer = await apiCustomer(1_000_000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...API_ROUTES),
        bodies,
        contentTypes,
        fc.string({ maxLength: 40 }),
        fc.option(fc.string({ unit: "binary", maxLength: 300 })),
        async (route, body, contentType, pathPart, idempotencyKey) => {
          const path = route.path.replace("{id}", encodeURIComponent(pathPart) || "1");
          const query = route.query
            ? `?${new URLSearchParams({ limit: pathPart, status: pathPart, cursor: pathPart })}`
            : "";
          const headers: Record<string, string> = { "content-type": contentType };
          if (idempotencyKey !== null) headers["idempotency-key"] = idempotencyKey;
          const answer = await callApi(route.method, path + query, { key: customer.key, body, headers }, handle);
          expect(answer.status).not.toBe(500);
          expect(documentedStatuses.get(`${route.method} ${route.path}`)).toContain(answer.status);
          if (answer.status >= 400) ErrorSchema.parse(answer.json);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never answers 500 to any path or method under /api/v1", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"),
        fc.webPath(),
        async (method, path) => {
          const answer = await callApi(method, `/api/v1${path}`, {}, handle);
          expect(answer.status).toBeLessThan(500);
          if (answer.status >= 400) ErrorSchema.parse(answer.json);
        },
      ),
      { numRuns: 200 },
    );
  });
});
