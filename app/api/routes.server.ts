// The REST API's route table: the server dispatches on it and the OpenAPI document is built from
// it, so every route answered is documented. A new endpoint is one defineRoute entry in its
// resource's file in app/api/resources/, whose routes are spread here.
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { openApiDocument } from "#app/api/openapi.server.ts";
import { ACCOUNT_ROUTES } from "#app/api/resources/account.server.ts";
import { CONTACT_LIST_ROUTES, CONTACT_ROUTES } from "#app/api/resources/contacts.server.ts";
import { GROUP_ROUTES } from "#app/api/resources/groups.server.ts";
import { MESSAGE_EVENT_ROUTES } from "#app/api/resources/message-events.server.ts";
import { MESSAGE_ROUTES } from "#app/api/resources/messages.server.ts";
import { OPT_OUT_ROUTES } from "#app/api/resources/opt-outs.server.ts";
import { SCHEDULE_ROUTES } from "#app/api/resources/schedules.server.ts";
import { OpenApiDocumentSchema } from "#app/api/schemas.ts";
import { WEBHOOK_ROUTES } from "#app/api/resources/webhooks.server.ts";

export const API_ROUTES: ApiRoute[] = [
  ...MESSAGE_ROUTES,
  ...MESSAGE_EVENT_ROUTES,
  // /contacts, the groups, then /contacts/{id}: the order the OpenAPI document has always had.
  ...CONTACT_LIST_ROUTES,
  ...GROUP_ROUTES,
  ...CONTACT_ROUTES,
  ...SCHEDULE_ROUTES,
  ...OPT_OUT_ROUTES,
  ...ACCOUNT_ROUTES,
  ...WEBHOOK_ROUTES,
  defineRoute({
    method: "GET",
    path: `${API_BASE}/openapi.json`,
    operationId: "getOpenApiDocument",
    tag: "Reference",
    summary: "This API's OpenAPI 3.1 document",
    auth: false,
    scope: null,
    success: { status: 200, description: "The OpenAPI document.", schema: OpenApiDocumentSchema },
    // Public and readable from any origin, so API tools can load it straight from the server.
    handle: ({ origin }) => ({
      body: openApiDocument(API_ROUTES, origin),
      headers: { "Access-Control-Allow-Origin": "*" },
    }),
  }),
];

/** The reader's own ids for the documentation's curl examples, per operation (none where they have nothing yet). */
export async function readerExampleValues(userId: number): Promise<Record<string, Record<string, string>>> {
  const values: Record<string, Record<string, string>> = {};
  for (const route of API_ROUTES) {
    const own = (await route.example?.readerParams?.(userId)) ?? {};
    const known = Object.entries(own).filter((entry): entry is [string, string | number] => entry[1] !== null);
    if (known.length)
      values[route.operationId] = Object.fromEntries(known.map(([name, value]) => [name, String(value)]));
  }
  return values;
}
