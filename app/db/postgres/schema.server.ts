// The PostgreSQL schema: every SQLite table of app/db/schema, derived (derive.server.ts), under the
// same export names. drizzle-kit reads this module (drizzle.pg.config.ts) to write drizzle-pg/.
import { derivePostgresTables } from "#app/db/postgres/derive.server.ts";
import * as accountSecuritySchema from "#app/db/schema/account-security.ts";
import * as accountsSchema from "#app/db/schema/accounts.ts";
import * as apiSchema from "#app/db/schema/api.ts";
import * as contactsSchema from "#app/db/schema/contacts.ts";
import * as coreSchema from "#app/db/schema/core.ts";
import * as inboundSchema from "#app/db/schema/inbound.ts";
import * as insightSchema from "#app/db/schema/insight.ts";
import * as mailSchema from "#app/db/schema/mail.ts";
import * as messageBatchesSchema from "#app/db/schema/message-batches.ts";
import * as optOutsSchema from "#app/db/schema/opt-outs.ts";
import * as pricingSchema from "#app/db/schema/pricing.ts";
import * as quietHoursSchema from "#app/db/schema/quiet-hours.ts";
import * as routingSchema from "#app/db/schema/routing.ts";
import * as schedulingSchema from "#app/db/schema/scheduling.ts";
import * as sendersSchema from "#app/db/schema/senders.ts";
import * as shopSchema from "#app/db/schema/shop.ts";
import * as smsSchema from "#app/db/schema/sms.ts";
import * as smsAttemptsSchema from "#app/db/schema/sms-attempts.ts";
import * as supportSchema from "#app/db/schema/support.ts";
import * as templatesSchema from "#app/db/schema/templates.ts";
import * as webhooksSchema from "#app/db/schema/webhooks.ts";

/** Every SQLite table of the schema source, by export name (the parity test checks none is missing). */
export const sqliteTables = {
  ...accountSecuritySchema,
  ...accountsSchema,
  ...apiSchema,
  ...contactsSchema,
  ...coreSchema,
  ...inboundSchema,
  ...insightSchema,
  ...mailSchema,
  ...messageBatchesSchema,
  ...optOutsSchema,
  ...pricingSchema,
  ...quietHoursSchema,
  ...routingSchema,
  ...schedulingSchema,
  ...sendersSchema,
  ...shopSchema,
  ...smsSchema,
  ...smsAttemptsSchema,
  ...supportSchema,
  ...templatesSchema,
  ...webhooksSchema,
};

/** The derived PostgreSQL tables by the SQLite tables' export names. */
export const postgresTables = derivePostgresTables(sqliteTables);

// drizzle-kit finds tables among a module's own exports.
export const {
  loginFailures,
  recoveryCodes,
  twoFactor,
  accountTokens,
  apiKeys,
  contactGroupMembers,
  contactGroups,
  contactImports,
  contacts,
  importUploads,
  groupSendSkips,
  groupSends,
  creditLedger,
  sessions,
  setupTokens,
  users,
  inboundMessages,
  inboundOutbox,
  inboundParts,
  messageRollup,
  mailOutbox,
  messageBatches,
  keywordReplies,
  optOuts,
  destinationPrices,
  destinationPriceVersion,
  quietHours,
  routeUpstreams,
  routes,
  upstreams,
  schedules,
  senders,
  cartItems,
  offlineCharges,
  orderLines,
  orders,
  packages,
  storedImages,
  smsMessageParts,
  smsMessages,
  smsOutbox,
  smsPendingReceipts,
  smsSubmitAttempts,
  supportRequests,
  messageTemplates,
  webhookCallbackSecrets,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
  webhookMessageCallbacks,
} = postgresTables;
