import { afterEach, describe, expect, it } from "vitest";
import { KEY_PLACEHOLDER } from "#app/api/code-examples.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { WEBHOOK_EVENTS } from "#app/api/webhook-schemas.ts";
import { loader } from "#app/routes/content/api-docs.tsx";
import { getEnv } from "#app/utils/env.server.ts";
import { resetClock, setClock } from "#app/utils/clock.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, dataOf, locationOf, makeRequest } from "#tests/support/requests.ts";

type Page = {
  openApiUrl: string;
  endpoints: { id: string; method: string; path: string; examples: { language: string; code: string }[] }[];
  events: { type: string; fields: { name: string }[]; example: string }[];
  reader: { signedIn: boolean; hasKey: boolean; keyShown: boolean };
};

afterEach(() => resetClock());

describe("/docs/api", () => {
  it("is readable signed out: every route and event, examples on the public address with the placeholder key", async () => {
    const page = dataOf<Page>(await call(loader, makeRequest("/docs/api", { headers: { host: "attacker.example" } })));
    expect(page.reader).toEqual({ signedIn: false, hasKey: false, keyShown: false });
    // Every route, in the document's order (paths grouped).
    expect(page.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      API_ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    const origin = getEnv().appUrl;
    expect(page.openApiUrl).toBe(`${origin}/api/v1/openapi.json`);
    for (const endpoint of page.endpoints) {
      expect(endpoint.examples.map((e) => e.language)).toEqual(["curl", "node", "python", "php"]);
      for (const { code } of endpoint.examples) expect(code).toContain(`${origin}/api/v1/`);
      if (endpoint.id !== "getOpenApiDocument")
        expect(endpoint.examples[0].code).toContain(`Bearer ${KEY_PLACEHOLDER}`);
    }
    expect(page.events.map((e) => e.type)).toEqual(WEBHOOK_EVENTS.map((e) => e.type));
    const delivered = page.events.find((e) => e.type === "message.delivered")!;
    expect(delivered.fields.map((f) => f.name)).toContain("updatedAt");
    expect(JSON.parse(delivered.example)).toMatchObject({ type: "message.delivered", data: { status: "delivered" } });
  });

  it("signed in: the reader's own ids, their key only when asked and only after a recent sign-in", async () => {
    const customer = await apiCustomer(5);
    const sent = await callApi("POST", "/api/v1/messages", {
      key: customer.key,
      json: { to: "+12025550150", body: "for the example" },
    });
    const page = await call(loader, makeRequest("/docs/api", { user: customer }));
    expect(dataOf<Page>(page).reader).toEqual({ signedIn: true, hasKey: true, keyShown: false });
    expect(JSON.stringify(dataOf(page))).not.toContain(customer.key);
    const getMessage = dataOf<Page>(page).endpoints.find((e) => e.id === "getMessage")!;
    expect(getMessage.examples[0].code).toContain(`/api/v1/messages/${sent.json.id}"`);

    const shown = dataOf<Page>(await call(loader, makeRequest("/docs/api?key=1", { user: customer })));
    expect(shown.reader.keyShown).toBe(true);
    for (const endpoint of shown.endpoints.filter((e) => e.id !== "getOpenApiDocument"))
      for (const { code } of endpoint.examples) expect(code).toContain(`Bearer ${customer.key}`);

    // Eleven minutes later the password is asked for again first, as on the API Token page.
    setClock(() => Date.now() + 11 * 60_000);
    const later = await call(loader, makeRequest("/docs/api?key=1", { user: customer }));
    expect(locationOf(later)).toBe(`/account/confirm-password?returnTo=${encodeURIComponent("/docs/api?key=1")}`);
    // Without asking, the page still works and keeps the placeholder.
    expect(dataOf<Page>(await call(loader, makeRequest("/docs/api", { user: customer }))).reader.keyShown).toBe(false);
  });

  it("asks a visitor who wants a key shown to sign in", async () => {
    expect(locationOf(await call(loader, makeRequest("/docs/api?key=1")))).toBe(
      `/login?redirectTo=${encodeURIComponent("/docs/api?key=1")}`,
    );
  });
});
