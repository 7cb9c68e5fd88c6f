// Opt-outs on the REST API (scope contacts:manage), on the opt-outs module's own functions (the
// Opt-outs screen's rules: the account's own numbers can be added and removed, keyword ones only listed).
import { z } from "zod";
import {
  addOptOuts,
  findOwnOptOut,
  listOptOutsBefore,
  type OptOut,
  removeOptOut,
} from "#app/modules/opt-outs/opt-outs.server.ts";
import { idPage, readIdPosition } from "#app/api/cursor.server.ts";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { fromConfig } from "#app/api/route-helpers.server.ts";
import { cursorField, cursorPage, EXAMPLE_PHONE, idField, idParams, limitField } from "#app/api/schemas.ts";
import { OPT_OUT_SOURCES } from "#app/db/enums.ts";
import { latestOwnOptOutId } from "#app/modules/opt-outs/opt-outs.server.ts";
import { phoneField } from "#app/modules/messaging/phone.ts";

const OptOutIdParams = idParams("One of your opt-outs' id (GET /api/v1/opt-outs).");

const ListOptOutsQuery = z.strictObject({ cursor: cursorField("opt-outs"), limit: limitField("Opt-outs") });

const requests = fromConfig((config) => {
  const CreateOptOutRequest = z.strictObject({
    phone: phoneField(config.defaultCountry).meta({
      description: `The number your messages must not go to; without a country code it is read as a ${config.defaultCountry} number.`,
      examples: [EXAMPLE_PHONE],
    }),
  });
  return { CreateOptOutRequest };
});

const OptOutSchema = z.object({
  id: idField(5),
  phone: z.string().meta({ description: "E.164", examples: [EXAMPLE_PHONE] }),
  source: z.enum(OPT_OUT_SOURCES).meta({
    description:
      "keyword: the phone replied STOP (or UNSUBSCRIBE, CANCEL, ...); only its START lifts it. manual / csv: you added it, by hand (or this API) or by a CSV upload; you can remove it.",
  }),
  sender: z.string().nullable().meta({
    description:
      "For a keyword opt-out, the sender it replied to (null: the gateway's shared sender). null for numbers you added, which cover all your senders.",
  }),
  keyword: z
    .string()
    .nullable()
    .meta({ description: "The word it sent, e.g. STOP.", examples: ["STOP"] }),
  createdAt: z.string().meta({ format: "date-time", description: "When it opted out." }),
});
type ApiOptOut = z.infer<typeof OptOutSchema>;

const OptOutListSchema = cursorPage(OptOutSchema, "Newest first.");

const CURSOR = "o1";

function present(row: OptOut): ApiOptOut {
  return {
    id: row.id,
    phone: row.phone,
    source: row.source,
    sender: row.source === "keyword" && row.scope ? row.scope : null,
    keyword: row.keyword,
    createdAt: row.createdAt.toISOString(),
  };
}

async function listApiOptOuts(userId: number, query: { cursor?: string; limit: number }) {
  const rows = await listOptOutsBefore(userId, readIdPosition(CURSOR, query.cursor), query.limit + 1);
  return idPage(CURSOR, rows, query.limit, present);
}

/** Adds a number to the account's own list; one already there answers as it is (`created: false`). */
async function createApiOptOut(userId: number, phone: string): Promise<{ optOut: ApiOptOut; created: boolean }> {
  const created = (await addOptOuts(userId, [phone], "manual")) > 0;
  return { optOut: present((await findOwnOptOut(userId, phone))!), created };
}

async function deleteApiOptOut(userId: number, id: number): Promise<ApiOptOut> {
  return present(await removeOptOut(userId, id));
}

export const OPT_OUT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/opt-outs`,
    operationId: "listOptOuts",
    tag: "Opt-outs",
    summary: "List the numbers your messages must not go to",
    description:
      "Newest first, a page at a time: the phones that replied STOP to one of your senders (or to the shared sender after a message of yours), and the numbers you added. A send to any of them is refused with `recipient_opted_out`.",
    auth: true,
    scope: "contacts:manage",
    query: ListOptOutsQuery,
    success: { status: 200, description: "One page of opt-outs.", schema: OptOutListSchema },
    example: { query: { limit: 10 } },
    handle: async ({ userId, query }) => ({ body: await listApiOptOuts(userId, query) }),
  }),
  defineRoute({
    method: "POST",
    path: `${API_BASE}/opt-outs`,
    operationId: "createOptOut",
    tag: "Opt-outs",
    summary: "Add a number to your opt-outs",
    description:
      "From now on your messages to it are refused (`recipient_opted_out`), from every one of your senders. Adding a number that is already on your list answers it with 200.",
    auth: true,
    scope: "contacts:manage",
    get body() {
      return requests().CreateOptOutRequest;
    },
    success: { status: 201, description: "Added.", schema: OptOutSchema },
    example: { body: { phone: EXAMPLE_PHONE } },
    handle: async ({ userId, body }) => {
      const { optOut, created } = await createApiOptOut(userId, body.phone);
      return { status: created ? 201 : 200, body: optOut };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${API_BASE}/opt-outs/{id}`,
    operationId: "deleteOptOut",
    tag: "Opt-outs",
    summary: "Remove a number you added",
    description:
      "Only numbers you added (by hand, CSV or this API): a phone that replied STOP stays opted out until it sends START (409).",
    auth: true,
    scope: "contacts:manage",
    params: OptOutIdParams,
    success: { status: 200, description: "Removed: the opt-out as it was.", schema: OptOutSchema },
    errors: ["not_found", "keyword_opt_out"],
    example: { params: { id: 5 }, readerParams: async (userId) => ({ id: await latestOwnOptOutId(userId) }) },
    handle: async ({ userId, params }) => ({ body: await deleteApiOptOut(userId, params.id) }),
  }),
];
