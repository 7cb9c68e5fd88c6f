// Property-based fuzzing of every form action (each intent) and every REST API endpoint with random
// and hostile input: very long strings, control characters, unicode (RTL marks, combining marks,
// emoji, lone surrogates), wrong types, missing and repeated fields, huge and negative numbers,
// path traversal. Properties: never a 500, and an answer that is not a success (anything but a
// redirect from a form, any 4xx from the API) leaves every row of the database as it was.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { getDb, withTx } from "#app/db/client.server.ts";
import { seedDatabase } from "#app/modules/seed/seed.server.ts";
import { packages } from "#app/db/schema/shop.ts";
import { issueSetupToken } from "#app/modules/auth/first-admin.server.ts";
import { issueToken } from "#app/modules/accounts/tokens.server.ts";
import { createApiHandler } from "#app/api/handler.server.ts";
import { API_ROUTES } from "#app/api/routes.server.ts";
import { ErrorSchema } from "#app/api/schemas.ts";
import { CLIENT_IP_HEADER } from "#app/utils/http.server.ts";
import { apiCustomer, callApi } from "#tests/support/api.ts";
import { call, createTestUser, statusOf, type TestUser } from "#tests/support/requests.ts";
import {
  appRoutes,
  customerWithEverything,
  databaseFingerprint,
  type Owned,
  routeModule,
  routeSource,
  tableCounts,
} from "#tests/support/security.ts";

await seedDatabase();
const [pack] = await getDb().select().from(packages).all();
const owner = await customerWithEverything(pack.id);
const admin = await createTestUser("admin");
// Logging out ends its session: a user of its own, so the others stay signed in.
const leaver = await createTestUser();
// A first-admin link of the kind start prints (with an admin already there, every use is refused).
const { token: setupToken } = await issueSetupToken();
// A password-reset link of an account of its own: a fuzzed post that succeeds ends only its sessions.
const resetUser = await createTestUser();
const resetToken = await withTx(async (tx) => await issueToken(tx, resetUser.id, "password_reset"));

// Each action's property runs this often; the whole file stays well under a minute on 2 cores.
const RUNS_PER_ACTION = 60;
const RUNS_PER_ENDPOINT = 60;

/** Values no form expects: long, binary, control characters, unicode edge cases, numbers that are not, paths. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  // eslint-disable-next-line no-control-regex -- control characters are the input under test
  fc.stringMatching(/^[\x00-\x1f\x7f]{1,20}$/),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202eevil\u202c",
    "\u200f\u05e9\u05dc\u05d5\u05dd",
    "\ud800",
    "\udfff x \ud83d",
    "e\u0301\u0301\u0301\u0301\u0301\u0301",
    "👩‍👩‍👧‍👦🏳️‍🌈",
    "../../../../etc/passwd",
    "..\\..\\app.db",
    "%2e%2e%2f%2e%2e%2f",
    "-1",
    "0",
    "-0",
    "1e309",
    "9007199254740993",
    "NaN",
    "Infinity",
    "0x1f",
    "1.5",
    "true",
    "on",
    "null",
    "[]",
    "{}",
    "<script>alert(1)</script>",
    "' OR 1=1; --",
    "$(touch /tmp/pwned)",
    "\r\nSet-Cookie: x=1",
    "2026-02-30T25:61",
    "9".repeat(400),
    "x".repeat(70_000),
    "😀".repeat(5_000),
  ),
);

/** Well-formed values of the app's fields, so some requests get past validation into the domain with the rest hostile. */
const plausible = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom(
    "+12025550123",
    "(202) 555-0142",
    "+44 7911 123456",
    "Ada Lovelace",
    "Hello there",
    "2031-01-15T09:05",
    "2031-02-01",
    "Europe/London",
    "UTC",
    "none",
    "daily",
    "monthly",
    "Confirmed",
    "Cancelled",
    "add",
    "remove",
    "Kq3vX9_pL2mN8rT4wY6z",
    "beverages",
    "12.50",
    "250",
    "4242 4242 4242 4242",
    "4000 0000 0000 0002",
    "12/40",
    "123",
    "on",
  ),
);

/** Form values: hostile text, plausible values, an id of the owner's (so some requests are valid), or a file where text is expected. */
function formValue(ids: string[]) {
  return fc.oneof(
    { weight: 5, arbitrary: hostileText },
    { weight: 3, arbitrary: plausible },
    { weight: 2, arbitrary: fc.constantFrom(...ids) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => new File([bytes], "x.bin", { type: "application/octet-stream" })),
    },
  );
}

type ActionSpec = {
  user: "visitor" | "owner" | "admin" | "leaver";
  path: (o: Owned) => string;
  params?: (o: Owned) => Record<string, string>;
  /** Every intent the route's forms post (and what a form without one means). */
  intents: string[];
  fields: string[];
};

/** Every route module with an action, with its forms' intents and fields. */
const ACTIONS: Record<string, ActionSpec> = {
  "routes/auth/login.tsx": {
    user: "visitor",
    path: () => "/login",
    intents: [],
    fields: ["email", "password", "redirectTo"],
  },
  "routes/auth/register.tsx": {
    user: "visitor",
    path: () => "/register",
    intents: [],
    fields: ["email", "fullName", "password"],
  },
  "routes/auth/logout.tsx": { user: "leaver", path: () => "/logout", intents: [], fields: [] },
  "routes/auth/setup.tsx": {
    user: "visitor",
    path: () => `/setup/${setupToken}`,
    params: () => ({ token: setupToken }),
    intents: [],
    fields: ["email", "fullName", "password", "confirmPassword"],
  },
  "routes/auth/forgot-password.tsx": {
    user: "visitor",
    path: () => "/forgot-password",
    intents: [],
    fields: ["email"],
  },
  "routes/auth/reset-password.tsx": {
    user: "visitor",
    path: () => `/reset-password/${resetToken}`,
    params: () => ({ token: resetToken }),
    intents: [],
    fields: ["password", "confirmPassword"],
  },
  "routes/account/settings.tsx": {
    user: "owner",
    path: () => "/account/settings",
    intents: ["profile", "email"],
    fields: ["fullName", "timeZone", "lowBalanceThreshold", "newEmail", "currentPassword"],
  },
  "routes/account/password.tsx": {
    user: "owner",
    path: () => "/account/password",
    intents: [],
    fields: ["currentPassword", "newPassword", "confirmPassword"],
  },
  "routes/account/resend-verification.tsx": {
    user: "owner",
    path: () => "/account/verify-email",
    intents: [],
    fields: ["redirectTo"],
  },
  "routes/shop/menu-item-details.tsx": {
    user: "owner",
    path: () => `/menuItemDetails/${pack.id}`,
    params: () => ({ menuItemId: String(pack.id) }),
    intents: [],
    fields: ["quantity"],
  },
  "routes/shop/shopping-cart.tsx": {
    user: "owner",
    path: () => "/shoppingCart",
    intents: ["place-order", "increment", "decrement", "remove"],
    fields: ["packageId", "name", "email", "phone"],
  },
  "routes/shop/payment.tsx": {
    user: "owner",
    path: (o) => `/payment?orderId=${o.pendingOrderId}`,
    intents: ["stripe-intent", "stripe-checkout"],
    fields: ["cardNumber", "expiry", "cvc"],
  },
  "routes/shop/order-details.tsx": {
    user: "admin",
    path: (o) => `/order/orderDetails/${o.confirmedOrderId}`,
    params: (o) => ({ id: String(o.confirmedOrderId) }),
    intents: [],
    fields: ["status"],
  },
  "routes/shop/menu-item-upsert.tsx": {
    user: "admin",
    path: () => `/menuItem/menuItemUpsert/${pack.id}`,
    params: () => ({ id: String(pack.id) }),
    intents: [],
    fields: ["name", "description", "specialTag", "category", "price", "credits", "image"],
  },
  "routes/shop/stripe-webhook.tsx": {
    user: "visitor",
    path: () => "/payment/webhook/stripe",
    intents: [],
    fields: ["type", "id", "data"],
  },
  "routes/sms/send-sms.tsx": {
    user: "owner",
    path: () => "/sms/sendSms",
    intents: ["send", "check"],
    fields: ["phoneNumber", "message", "from", "background"],
  },
  "routes/sms/documentation.tsx": {
    user: "owner",
    path: () => "/sms/documentation",
    intents: ["send", "check"],
    fields: ["phoneNumber", "message", "from"],
  },
  "routes/sms/schedule-sms.tsx": {
    user: "owner",
    path: () => "/sms/scheduleSms",
    intents: ["schedule", "check"],
    fields: ["firstSend", "repeat", "endDate", "timeZone", "phoneNumber", "message", "from"],
  },
  "routes/sms/scheduled.tsx": { user: "owner", path: () => "/sms/scheduled", intents: ["cancel"], fields: ["id"] },
  "routes/sms/create-contact.tsx": {
    user: "owner",
    path: () => "/sms/createContact",
    intents: [],
    fields: ["name", "phoneNumber", "email", "groupIds"],
  },
  "routes/sms/create-group.tsx": {
    user: "owner",
    path: () => "/sms/createGroup",
    intents: [],
    fields: ["groupName", "description"],
  },
  "routes/sms/account-contacts.tsx": {
    user: "owner",
    path: () => "/sms/accountContacts",
    intents: ["update", "delete", "send", "check"],
    fields: ["id", "name", "phoneNumber", "email", "groupIds", "active", "message", "from"],
  },
  "routes/sms/account-groups.tsx": {
    user: "owner",
    path: () => "/sms/accountGroups",
    intents: ["update", "delete", "send", "check"],
    fields: ["id", "groupName", "description", "message", "requestKey", "from", "quoted"],
  },
  "routes/sms/import-contacts.tsx": {
    user: "owner",
    path: () => "/sms/importContacts",
    intents: ["upload", "discard", "import"],
    fields: ["file", "token", "hasHeader", "name", "phone", "email", "group"],
  },
  "routes/sms/api-token.tsx": {
    user: "owner",
    path: () => "/sms/apiToken",
    intents: ["regenerate", "revoke", "create"],
    fields: ["keyId", "name", "scopes"],
  },
  "routes/auth/login-two-factor.tsx": {
    user: "visitor",
    path: () => "/login/two-factor",
    intents: [],
    fields: ["code", "redirectTo"],
  },
  "routes/account/two-factor.tsx": {
    user: "owner",
    path: () => "/account/two-factor",
    intents: ["start", "confirm", "disable", "recovery-codes"],
    fields: ["code"],
  },
  "routes/account/sessions.tsx": {
    user: "owner",
    path: () => "/account/sessions",
    intents: ["end", "end-others"],
    fields: ["session"],
  },
  "routes/account/confirm-password.tsx": {
    user: "owner",
    path: () => "/account/confirm-password",
    intents: [],
    fields: ["password", "returnTo"],
  },
  "routes/content/contact.tsx": {
    user: "visitor",
    path: () => "/sms/contact",
    intents: [],
    fields: ["name", "email", "subject", "message", "website"],
  },
  "routes/content/support.tsx": {
    user: "owner",
    path: () => "/sms/support",
    intents: [],
    fields: ["subject", "message"],
  },
  "routes/content/support-inbox.tsx": {
    user: "admin",
    path: () => "/admin/support",
    intents: ["handle", "reopen"],
    fields: ["id"],
  },
  "routes/sms/inbox-thread.tsx": {
    user: "owner",
    path: (o) => `/sms/inbox/${o.inboundPhone}`,
    params: (o) => ({ phone: o.inboundPhone }),
    intents: ["send", "check", "read"],
    fields: ["phoneNumber", "message", "from"],
  },
  "routes/admin/inbound.tsx": {
    user: "admin",
    path: () => "/admin/inbound",
    intents: [],
    fields: ["id", "account"],
  },
  "routes/admin/simulate.tsx": {
    user: "admin",
    path: () => "/admin/simulate",
    intents: [],
    fields: ["from", "to", "message"],
  },
  "routes/admin/user-details.tsx": {
    user: "admin",
    path: (o) => `/admin/users/${o.customer.id}`,
    params: (o) => ({ id: String(o.customer.id) }),
    intents: [],
    fields: ["direction", "amount", "reason", "requestKey"],
  },
  "routes/sms/templates.tsx": {
    user: "owner",
    path: () => "/sms/templates",
    intents: ["save", "preview", "delete"],
    fields: ["id", "name", "body"],
  },
  "routes/sms/senders.tsx": {
    user: "owner",
    path: () => "/sms/senders",
    intents: ["default", "request"],
    fields: ["id", "address"],
  },
  "routes/sms/opt-outs.tsx": {
    user: "owner",
    path: () => "/sms/optOuts",
    intents: ["add", "import", "remove"],
    fields: ["phoneNumber", "file", "id"],
  },
  "routes/admin/senders.tsx": {
    user: "admin",
    path: () => "/admin/senders",
    intents: ["create", "update", "approve", "reject", "delete", "replies"],
    fields: ["id", "address", "kind", "ton", "npi", "account", "reason", "stop", "start", "help"],
  },
  "routes/admin/upstreams.tsx": {
    user: "admin",
    path: () => "/admin/upstreams",
    intents: ["create", "update", "disable", "enable", "fail", "recover"],
    fields: ["id", "name", "kind", "url", "systemId", "password", "binds", "window", "tps", "sourceAddr", "enabled"],
  },
  "routes/admin/routes.tsx": {
    user: "admin",
    path: () => "/admin/routes",
    intents: ["save", "delete"],
    fields: ["id", "prefix", "slots[0].upstream", "slots[0].weight", "slots[0].cost", "slots[1].upstream"],
  },
  "routes/admin/prices.tsx": {
    user: "admin",
    path: () => "/admin/prices",
    intents: ["save", "delete", "import"],
    fields: ["prefix", "creditsPerSegment", "file", "replace"],
  },
  "routes/sms/webhooks.tsx": {
    user: "owner",
    path: () => "/sms/webhooks",
    intents: ["add", "rotate-callback"],
    fields: ["url", "events", "enabled"],
  },
  "routes/sms/webhook-deliveries.tsx": {
    user: "owner",
    path: (o) => `/sms/webhooks/${o.webhookEndpointId}`,
    params: (o) => ({ id: String(o.webhookEndpointId) }),
    intents: ["test", "enable", "disable", "rotate", "redeliver", "delete"],
    fields: ["deliveryId"],
  },
  "routes/not-found.tsx": { user: "visitor", path: () => "/no/such/page", intents: [], fields: ["anything"] },
  // Last: its deletes (an id of the owner's may be a package's too) take packages the others use.
  "routes/shop/menu-item-list.tsx": {
    user: "admin",
    path: () => "/menuItem/menuitemlist",
    intents: ["delete"],
    fields: ["id"],
  },
};

const users: Record<ActionSpec["user"], TestUser | null> = { visitor: null, owner: owner.customer, admin, leaver };

const ownIds = (o: Owned) =>
  [
    o.contactId,
    o.groupId,
    o.groupSendId,
    o.messageId,
    o.scheduleId,
    o.pendingOrderId,
    o.confirmedOrderId,
    o.importReportId,
    o.supportRequestId,
    o.webhookEndpointId,
    o.webhookDeliveryId,
    pack.id,
  ]
    .map(String)
    .concat(o.importToken);

type Field = [string, string | File];

/** Lone surrogates as U+FFFD, which is what a browser sends for them (encodeURIComponent refuses them). */
const wellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8");

/** A form: an intent (known, unknown or none), some of the fields (some repeated), and a few strangers. */
function formArbitrary(spec: ActionSpec, ids: string[]) {
  const value = formValue(ids);
  const known = spec.fields.map((name) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant([] as Field[]) },
      { weight: 4, arbitrary: value.map((v) => [[name, v]] as Field[]) },
      {
        weight: 1,
        arbitrary: fc.tuple(value, value).map(
          ([v, w]) =>
            [
              [name, v],
              [name, w],
            ] as Field[],
        ),
      },
    ),
  );
  const intent = fc.option(fc.oneof(fc.constantFrom(...(spec.intents.length ? spec.intents : ["x"])), hostileText), {
    nil: undefined,
  });
  const strangers = fc.array(
    fc.tuple(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "intent[]", "id[0]")),
      value,
    ),
    { maxLength: 3 },
  );
  return fc.record({
    intent,
    fields: known.length ? fc.tuple(...known).map((lists) => lists.flat()) : fc.constant([] as Field[]),
    strangers,
    encoding: fc.constantFrom("multipart", "urlencoded", "raw-bytes"),
    ip: fc.ipV4(),
  });
}

type Form = {
  intent: string | undefined;
  fields: Field[];
  strangers: Field[];
  encoding: "multipart" | "urlencoded" | "raw-bytes";
  ip: string;
};

/** The request a browser (or something pretending) would post. */
function formRequest(path: string, user: TestUser | null, form: Form): Request {
  const entries: Field[] = [
    ...(form.intent === undefined ? [] : [["intent", form.intent] as Field]),
    ...form.fields,
    ...form.strangers,
  ];
  const headers = new Headers({ [CLIENT_IP_HEADER]: form.ip });
  if (user) headers.set("Cookie", user.cookie);
  const url = new URL(path, "http://localhost");
  if (form.encoding === "multipart") {
    const body = new FormData();
    for (const [name, value] of entries) body.append(name, value);
    return new Request(url, { method: "POST", headers, body });
  }
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  const text = entries.map(([name, value]) => [name, typeof value === "string" ? value : "file"]);
  // raw-bytes: percent-escapes that are not UTF-8 (a lone surrogate's bytes, an overlong NUL, 0xFF).
  const body =
    form.encoding === "urlencoded"
      ? new URLSearchParams(text).toString()
      : text
          .map(
            ([name, value]) =>
              `${encodeURIComponent(wellFormed(name))}=${encodeURIComponent(wellFormed(value))}%ED%A0%80%C0%80%FF`,
          )
          .join("&");
  return new Request(url, { method: "POST", headers, body });
}

/** Intents the route module's own markup posts: each must be in the spec, so a new form is fuzzed too. */
function intentsInMarkup(file: string): string[] {
  return [...routeSource(file).matchAll(/name="intent" value="([^"]+)"/g)].map((m) => m[1]);
}

describe("every form action, fuzzed", () => {
  it("has a spec for every route module with an action, naming every intent its markup posts", async () => {
    for (const { file } of appRoutes()) {
      const module = await routeModule(file);
      if (typeof module.action !== "function") continue;
      expect(ACTIONS[file], `${file} has an action: add its fields and intents to ACTIONS`).toBeDefined();
      for (const intent of intentsInMarkup(file))
        expect(ACTIONS[file].intents, `${file} posts intent=${intent}`).toContain(intent);
    }
    const files = new Set(appRoutes().map((r) => r.file));
    for (const file of Object.keys(ACTIONS)) expect(files.has(file), `${file} is no route`).toBe(true);
  });

  for (const [file, spec] of Object.entries(ACTIONS)) {
    it(`${file}: never a 500, and nothing written unless it succeeds`, async () => {
      const action = (await routeModule(file)).action as Parameters<typeof call>[0];
      const ids = ownIds(owner);
      await fc.assert(
        fc.asyncProperty(formArbitrary(spec, ids), async (form) => {
          const before = await databaseFingerprint();
          const counts = await tableCounts();
          let result: unknown;
          try {
            result = await call(action, formRequest(spec.path(owner), users[spec.user], form), spec.params?.(owner));
          } catch (error) {
            // call() hands back thrown Responses; anything else thrown would be a 500.
            throw new Error(`threw ${error instanceof Error ? error.stack : String(error)}`, { cause: error });
          }
          const status = statusOf(result);
          expect(status).toBeLessThan(500);
          const redirected = status >= 300 && status < 400;
          if (!redirected) {
            expect(await tableCounts()).toEqual(counts);
            expect(await databaseFingerprint()).toBe(before);
          }
        }),
        { numRuns: RUNS_PER_ACTION },
      );
    });
  }
});

/** JSON values of every type, with the numbers and strings that break parsers. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 3 }),
);

/** A JSON object text with the route's fields (some missing, some repeated as duplicate keys) and strangers. */
function jsonBody(fields: string[]) {
  const member = (name: string) =>
    fc.oneof(
      fc.constant(""),
      hostileJson.map((v) => `${JSON.stringify(name)}:${JSON.stringify(v) ?? "null"}`),
    );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          ...fields.map((name) => fc.tuple(member(name), fc.oneof(fc.constant(""), member(name)))),
          fc.array(member("__proto__"), { maxLength: 1 }),
        )
        .map((parts) => `{${parts.flat(2).filter(Boolean).join(",")}}`),
    },
    { weight: 1, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? "") },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "{", "[".repeat(10_000), '{"a":1}garbage', "\u0000", '{"to":"\\ud800"}'),
    },
  );
}

const shapeKeys = (schema: z.ZodType | undefined) =>
  schema ? Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape) : [];

describe("every REST API endpoint, fuzzed", () => {
  const handle = createApiHandler({ ratePerMinute: 1_000_000 });

  for (const route of API_ROUTES) {
    it(`${route.method} ${route.path}: never a 500, a JSON error, and nothing written by a refused request`, async () => {
      const customer = await apiCustomer(1_000);
      // Its key's first use records the last use: once, before the property.
      await callApi("GET", "/api/v1/balance", { key: customer.key }, handle);
      const ids = ownIds(owner);
      const pathPart = fc.oneof(
        hostileText,
        fc.constantFrom(
          ...ids,
          `sch_${owner.scheduleId}`,
          "sch_0",
          "sch_-1",
          "sch_1e3",
          "..",
          "%2e%2e",
          "..%2Fbalance",
          "1%00",
          "-1",
          "0",
          "99999999999999999999",
        ),
      );
      const queryFields = shapeKeys(route.query);
      await fc.assert(
        fc.asyncProperty(
          pathPart,
          fc.array(fc.tuple(fc.constantFrom(...queryFields, "id", "x"), hostileText), { maxLength: 4 }),
          route.body ? jsonBody(shapeKeys(route.body)) : fc.constant(undefined),
          fc.constantFrom(
            "application/json",
            "application/json; charset=utf-8",
            "text/plain",
            "application/x-www-form-urlencoded",
          ),
          fc.option(fc.oneof(hostileText, fc.constantFrom("retry-1", "k".repeat(256))), { nil: undefined }),
          async (id, query, body, contentType, idempotencyKey) => {
            const before = await databaseFingerprint();
            const path = route.path.replace(/\{\w+\}/g, encodeURIComponent(wellFormed(id)) || "1");
            const search = query.length ? `?${new URLSearchParams(query)}` : "";
            const headers: Record<string, string> = { "content-type": contentType };
            if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey.replace(/[\r\n]/g, "");
            const answer = await callApi(route.method, path + search, { key: customer.key, body, headers }, handle);
            expect(answer.status).toBeLessThan(500);
            if (answer.status >= 400) {
              ErrorSchema.parse(answer.json);
              expect(await databaseFingerprint()).toBe(before);
            }
          },
        ),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    });
  }
});
