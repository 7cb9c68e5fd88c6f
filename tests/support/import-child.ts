// Another web process for the CSV import: `node import-child.ts <userId> <token>` opens the upload's
// preview and imports it through the Import Contacts screen's action (what its loader and form call),
// and prints what they answered as one JSON line.
import { closeDb } from "#app/db/client.server.ts";
import { previewImport } from "#app/modules/contacts/import.server.ts";
import { closeRedis } from "#app/queue/redis.server.ts";
import { importContactsAction } from "#app/routes/sms/import-contacts.server.ts";
import { locationOf, makeRequest } from "#tests/support/requests.ts";

const [userId, token] = process.argv.slice(2) as [string, string];
const preview = await previewImport(Number(userId), token);
const form = { intent: "import", token, hasHeader: "on", name: "0", phone: "1", email: "2" };
const imported = await importContactsAction(makeRequest("/sms/importContacts", { form }), Number(userId));
process.stdout.write(`${JSON.stringify({ preview, location: locationOf(imported) })}\n`);
await closeDb();
await closeRedis();
