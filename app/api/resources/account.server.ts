// The account on the REST API: its credit balance, from the credits ledger.
import { z } from "zod";
import { API_BASE, type ApiRoute, defineRoute } from "#app/api/define-route.ts";
import { getBalance } from "#app/modules/credits/ledger.server.ts";

export const BalanceSchema = z.object({
  credits: z.int().nonnegative().meta({ description: "Credits left; 1 credit sends one SMS segment." }),
});

export const ACCOUNT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: `${API_BASE}/balance`,
    operationId: "getBalance",
    tag: "Account",
    summary: "Your credit balance",
    auth: true,
    scope: "messages:read",
    success: { status: 200, description: "Credits left.", schema: BalanceSchema },
    handle: async ({ userId }) => ({ body: { credits: await getBalance(userId) } }),
  }),
];
