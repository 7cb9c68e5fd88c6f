// An integrator's first hour: types generated from the served OpenAPI document (openapi-typescript),
// a small client written against them with openapi-fetch that must compile under tsc (a misuse must
// not), and that client calling the real API over HTTP: send, get, list with a filter.
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCustomer, startApiServer } from "#tests/support/api.ts";

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./api.js";

export async function sendGetAndList(baseUrl: string, key: string, to: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const sent = await client.POST("/api/v1/messages", { body: { to, body: "Typed hello" } });
  if (!sent.data) throw new Error(\`send failed: \${JSON.stringify(sent.error)}\`);
  const id: number | string = sent.data.id;
  const got = await client.GET("/api/v1/messages/{id}", { params: { path: { id } } });
  const list = await client.GET("/api/v1/messages", { params: { query: { to, status: "queued", limit: 5 } } });
  // @ts-expect-error -- not a filter of the list: the generated types must refuse it
  await client.GET("/api/v1/messages", { params: { query: { colour: "blue" } } });
  const quote = await client.POST("/api/v1/messages/quote", { body: { body: "Typed hello" } });
  return { sent: sent.data, got: got.data, list: list.data, credits: quote.data?.credits };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    outDir: "out",
  },
  files: ["client.ts", "api.d.ts"],
};

let server: Awaited<ReturnType<typeof startApiServer>>;
let dir: string;

beforeAll(async () => {
  server = await startApiServer();
  dir = await mkdtemp(join(tmpdir(), "api-client-"));
  // The client's imports resolve to the project's packages.
  await symlink(resolve("node_modules"), join(dir, "node_modules"), "dir");
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a client generated from the OpenAPI document", () => {
  it("compiles against the document and calls the API over HTTP", async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const types = astToString(await openapiTS(document));
    await writeFile(join(dir, "api.d.ts"), types);
    await writeFile(join(dir, "client.ts"), CLIENT);
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    const compiled = await run(process.execPath, [tsc, "-p", dir]).catch((error: { stdout: string }) => error);
    expect("stdout" in compiled ? compiled.stdout : "").toBe("");

    const customer = await apiCustomer(5);
    const client = (await import(pathToFileURL(join(dir, "out", "client.js")).href)) as {
      sendGetAndList: (
        baseUrl: string,
        key: string,
        to: string,
      ) => Promise<{
        sent: { id: number };
        got: { id: number; to: string };
        list: { data: { id: number }[] };
        credits: number;
      }>;
    };
    const { sent, got, list, credits } = await client.sendGetAndList(server.url, customer.key, "+12025550501");
    expect(got).toMatchObject({ id: sent.id, to: "+12025550501", status: "queued" });
    expect(list.data.map((m) => m.id)).toEqual([sent.id]);
    expect(credits).toBe(1);
  }, 120_000);
});
