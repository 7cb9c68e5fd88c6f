// Entry trampoline: checks the Node version before anything loads better-sqlite3 (an older Node
// crashes inside it with a segmentation fault instead of an error), then runs the TypeScript entry.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `This app needs Node >= 22.22 (found ${process.versions.node}). ` +
      "Run it through npm (npm start, npm test, npm run worker), which uses the Node 22 that npm install brought.",
  );
  process.exit(1);
}
const entry = process.argv[2];
if (!entry) {
  console.error("usage: node scripts/run.mjs <entry.ts> [args...]");
  process.exit(2);
}
process.argv.splice(2, 1);
try {
  await import(pathToFileURL(resolve(entry)).href);
} catch (error) {
  // A configuration refused at start: its message says which variable and why, a stack trace would bury it.
  if (error?.name !== "ConfigurationError") throw error;
  console.error(error.message);
  process.exit(1);
}
