// How a receiver checks a delivery's Standard Webhooks signature, in the reference's four languages.
// The Node and shell versions run in tests/unit/webhook-verification.test.ts against real signatures.
import type { LanguageId } from "#app/api/code-examples.ts";

/** The variable the examples read the endpoint's signing secret (whsec_...) from. */
export const SECRET_VARIABLE = "SMSGW_WEBHOOK_SECRET";

const node = `// npm install standardwebhooks   (Node.js 18 or later, an ES module)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

// The endpoint's signing secret from the Webhooks screen (whsec_...).
const webhook = new Webhook(process.env.${SECRET_VARIABLE});
const STATUS_EVENTS = ["message.sent", "message.delivered", "message.failed"];
// Keep these two in your database: the events already handled, the newest updatedAt per message.
const handled = new Set();
const newest = new Map();

function handle(event) {
  if (STATUS_EVENTS.includes(event.type)) {
    const known = newest.get(event.data.id);
    if (known && known >= event.data.updatedAt) return; // an older event that arrived late
    newest.set(event.data.id, event.data.updatedAt);
  }
  console.log(event.type, JSON.stringify(event.data));
}

createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const rawBody = Buffer.concat(chunks).toString("utf8");
  let event;
  try {
    // Checks the signature over the raw body and that the timestamp is within five minutes.
    event = webhook.verify(rawBody, request.headers);
  } catch {
    response.writeHead(400).end("bad signature");
    return;
  }
  // A retry has the same webhook-id as the first try: handle each event once.
  const id = request.headers["webhook-id"];
  if (!handled.has(id)) {
    handled.add(id);
    handle(event);
  }
  response.writeHead(204).end();
}).listen(Number(process.env.PORT ?? 3000));
`;

const python = `# pip install standardwebhooks flask
import os

from flask import Flask, request
from standardwebhooks import Webhook

app = Flask(__name__)
# The endpoint's signing secret from the Webhooks screen (whsec_...).
webhook = Webhook(os.environ["${SECRET_VARIABLE}"])
STATUS_EVENTS = ("message.sent", "message.delivered", "message.failed")
# Keep these two in your database: the events already handled, the newest updatedAt per message.
handled = set()
newest = {}


def handle(event):
    data = event["data"]
    if event["type"] in STATUS_EVENTS:
        if newest.get(data["id"], "") >= data["updatedAt"]:
            return  # an older event that arrived late
        newest[data["id"]] = data["updatedAt"]
    print(event["type"], data)


@app.post("/webhooks/sms")
def receive():
    try:
        # Checks the signature over the raw body and that the timestamp is within five minutes.
        event = webhook.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "bad signature", 400
    # A retry has the same webhook-id as the first try: handle each event once.
    event_id = request.headers["webhook-id"]
    if event_id not in handled:
        handled.add(event_id)
        handle(event)
    return "", 204
`;

const php = `<?php
// composer require standard-webhooks/standard-webhooks
require __DIR__ . '/vendor/autoload.php';

$payload = file_get_contents('php://input');
$headers = [
    'webhook-id' => $_SERVER['HTTP_WEBHOOK_ID'] ?? '',
    'webhook-timestamp' => $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '',
    'webhook-signature' => $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '',
];
// The endpoint's signing secret from the Webhooks screen (whsec_...).
$webhook = new \\StandardWebhooks\\Webhook(getenv('${SECRET_VARIABLE}'));
try {
    // Checks the signature over the raw body and that the timestamp is within five minutes.
    $event = $webhook->verify($payload, $headers);
} catch (\\Exception $e) {
    http_response_code(400);
    exit('bad signature');
}

$db = new PDO('sqlite:' . __DIR__ . '/webhooks.sqlite');
$db->exec('CREATE TABLE IF NOT EXISTS handled_events (id TEXT PRIMARY KEY)');
$db->exec('CREATE TABLE IF NOT EXISTS message_status (id INTEGER PRIMARY KEY, status TEXT, updated_at TEXT)');
// A retry has the same webhook-id as the first try: handle each event once.
$first = $db->prepare('INSERT OR IGNORE INTO handled_events (id) VALUES (?)');
$first->execute([$headers['webhook-id']]);
$statusEvents = ['message.sent', 'message.delivered', 'message.failed'];
if ($first->rowCount() === 1 && in_array($event['type'], $statusEvents, true)) {
    // Keep the newest: an older event that arrives late changes nothing.
    $db->prepare(
        'INSERT INTO message_status (id, status, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
         WHERE excluded.updated_at > message_status.updated_at'
    )->execute([$event['data']['id'], $event['data']['status'], $event['data']['updatedAt']]);
}
http_response_code(204);
`;

const shell = `#!/bin/sh
# Checks one delivery by hand: ./verify-webhook.sh body.json, with the endpoint's secret in
# ${SECRET_VARIABLE} and the three headers as received in WEBHOOK_ID, WEBHOOK_TIMESTAMP and
# WEBHOOK_SIGNATURE. body.json must hold the body byte for byte (e.g. from your server's log).
set -eu
# The key is the base64 after whsec_; the signed text is id.timestamp.body.
key_hex=$(printf '%s' "\${${SECRET_VARIABLE}#whsec_}" | base64 -d | od -An -v -tx1 | tr -d ' \\n')
expected=$({ printf '%s.%s.' "$WEBHOOK_ID" "$WEBHOOK_TIMESTAMP"; cat "$1"; } |
  openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key_hex" -binary | base64)
now=$(date +%s)
if [ $((now - WEBHOOK_TIMESTAMP)) -gt 300 ] || [ $((WEBHOOK_TIMESTAMP - now)) -gt 300 ]; then
  echo "timestamp more than five minutes away: refuse it" >&2
  exit 1
fi
# The header may hold several signatures, space-separated (while a secret is rotated): one must match.
case " $WEBHOOK_SIGNATURE " in
  *" v1,$expected "*) echo "signature OK" ;;
  *) echo "signature does not match" >&2; exit 1 ;;
esac
`;

/** The verification example per language; the curl tab holds the shell version (openssl). */
export const WEBHOOK_VERIFICATION_EXAMPLES: { language: LanguageId; code: string }[] = [
  { language: "curl", code: shell },
  { language: "node", code: node },
  { language: "python", code: python },
  { language: "php", code: php },
];
