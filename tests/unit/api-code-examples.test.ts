import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { KEY_PLACEHOLDER, LANGUAGES } from "#app/api/code-examples.ts";
import { openApiDocument } from "#app/api/openapi.server.ts";
import { apiReference } from "#app/api/reference.server.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";

const ORIGIN = "https://sms.example.com";
const KEY = KEY_PLACEHOLDER;
const document = openApiDocument(API_ROUTES, ORIGIN);
const { endpoints } = apiReference(document, {}, KEY);

type Operation = { requestBody?: { content: { "application/json": { example?: unknown } } }; security?: unknown[] };
const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
  ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);
/** The operation's own body example; without one, the body made from its schema (tested below). */
function expectedBody(method: string, path: string): unknown {
  const { requestBody } = operations.find((o) => o.path === path && o.method === method.toLowerCase())!.operation;
  return requestBody ? (requestBody.content["application/json"].example ?? expect.any(Object)) : undefined;
}

/** The request a snippet makes: what its HTTP call was given. */
type Captured = { method: string; url: string; headers: Record<string, string>; body?: unknown };
const code = (endpoint: (typeof endpoints)[number], language: string) =>
  endpoint.examples!.find((e) => e.language === language)!.code;

describe("code examples", () => {
  it("exist in curl, Node, Python and PHP for every operation of the document", () => {
    expect(endpoints).toHaveLength(operations.length);
    for (const endpoint of endpoints) {
      expect(
        endpoint.examples?.map((e) => e.language),
        endpoint.id,
      ).toEqual(LANGUAGES.map((l) => l.id));
      for (const { code } of endpoint.examples!) {
        // Each names the method (curl without -X is a GET) and the path.
        if (code.startsWith("curl") && endpoint.method === "GET") expect(code).not.toContain(" -X ");
        else expect(code.toUpperCase(), endpoint.id).toContain(endpoint.method);
        expect(code, endpoint.id).toContain(`${ORIGIN}${endpoint.path.split("{")[0]}`);
      }
    }
  });

  it("an operation without a body example still sends one: its required fields", () => {
    const bare = structuredClone(document) as typeof document & {
      paths: Record<string, Record<string, Operation>>;
    };
    delete bare.paths["/api/v1/messages"].post.requestBody!.content["application/json"].example;
    const send = apiReference(bare, {}, KEY).endpoints.find((e) => e.id === "sendMessage")!;
    const nowdoc = /<<<'JSON'\n([\s\S]*?)\nJSON;/.exec(code(send, "php"))!;
    expect(Object.keys(JSON.parse(nowdoc[1]))).toEqual(["to", "body"]);
  });

  it("Node: each runs and makes the documented request", async () => {
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    for (const endpoint of endpoints) {
      let captured: Captured | undefined;
      const fetch = async (
        url: string,
        init: { method?: string; headers?: Record<string, string>; body?: string } = {},
      ) => {
        captured = {
          method: init.method ?? "GET",
          url,
          headers: init.headers ?? {},
          body: init.body === undefined ? undefined : JSON.parse(init.body),
        };
        return { status: 200, json: async () => ({}) };
      };
      await new AsyncFunction("fetch", "console", code(endpoint, "node"))(fetch, { log: () => {} });
      expect(captured!.method, endpoint.id).toBe(endpoint.method);
      expect(captured!.url).toMatch(new RegExp(`^${ORIGIN}${endpoint.path.replace(/\{\w+\}/g, "[^/?]+")}(\\?|$)`));
      expect(captured!.body, endpoint.id).toEqual(expectedBody(endpoint.method, endpoint.path));
      if (endpoint.auth) expect(captured!.headers.Authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it.skipIf(spawnSync("python3", ["--version"]).status !== 0)(
    "Python: each runs (with requests stubbed) and makes the documented request",
    () => {
      // A stand-in for the requests package that records each call; every snippet runs in turn.
      const harness = `
import json, sys, types
calls = []
class Answer:
    status_code = 200
    def json(self): return {}
requests = types.ModuleType("requests")
for verb in ("get", "post", "put", "patch", "delete"):
    setattr(requests, verb, lambda url, verb=verb, **kw: calls.append({"method": verb.upper(), "url": url, **kw}) or Answer())
sys.modules["requests"] = requests
for snippet in json.load(sys.stdin):
    exec(compile(snippet, "<example>", "exec"), {"print": lambda *a: None})
print(json.dumps(calls))
`;
      const result = spawnSync("python3", ["-c", harness], {
        input: JSON.stringify(endpoints.map((e) => code(e, "python"))),
      });
      expect(result.stderr.toString()).toBe("");
      const calls = JSON.parse(result.stdout.toString()) as (Captured & { json?: unknown })[];
      expect(calls).toHaveLength(endpoints.length);
      calls.forEach((call, i) => {
        const endpoint = endpoints[i];
        expect(call.method, endpoint.id).toBe(endpoint.method);
        expect(call.json, endpoint.id).toEqual(expectedBody(endpoint.method, endpoint.path));
        if (endpoint.auth) expect(call.headers).toEqual({ Authorization: `Bearer ${KEY}` });
      });
    },
  );

  it("PHP: the embedded JSON body is the operation's example (php itself is checked when installed)", () => {
    const hasPhp = spawnSync("php", ["--version"]).status === 0;
    for (const endpoint of endpoints) {
      const snippet = code(endpoint, "php");
      const nowdoc = /<<<'JSON'\n([\s\S]*?)\nJSON;/.exec(snippet);
      expect(nowdoc ? JSON.parse(nowdoc[1]) : undefined, endpoint.id).toEqual(
        expectedBody(endpoint.method, endpoint.path),
      );
      expect(snippet).toContain(`CURLOPT_CUSTOMREQUEST => '${endpoint.method}'`);
      if (hasPhp) expect(spawnSync("php", ["-l"], { input: snippet }).status, endpoint.id).toBe(0);
    }
  });

  it("curl: each is valid shell and sends the operation's example body", () => {
    for (const endpoint of endpoints) {
      const snippet = code(endpoint, "curl");
      expect(spawnSync("bash", ["-n"], { input: snippet }).status, endpoint.id).toBe(0);
      // What the shell passes to -d, with its quoting undone.
      const data = /-d ('(?:[^']|'\\'')*')$/.exec(snippet)?.[1];
      const body = data ? spawnSync("bash", ["-c", `printf %s ${data}`]).stdout.toString() : undefined;
      expect(body === undefined ? undefined : JSON.parse(body), endpoint.id).toEqual(
        expectedBody(endpoint.method, endpoint.path),
      );
    }
  });
});
