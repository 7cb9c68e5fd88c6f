// The layers, one direction: delivery (app/routes, app/components, app/web, app/api, server, worker) -> domain (app/modules) -> data (app/db).
// `npm run lint:layers`; `npm test` runs it and counts it as one test.

// Imports the domain may not make: web frameworks, and what sits above it (the delivery layers, scripts, tests).
// Matched anywhere in the path: a symlinked node_modules resolves to its real folder.
const WEB_PACKAGES = "(^|/)node_modules/(react-router|@react-router|@conform-to)/";
const ABOVE_DOMAIN =
  "^(app/routes/|app/api/|app/components/|app/web/|app/root\\.tsx$|app/entry\\.server\\.tsx$|server/|worker/|scripts/|tests/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle makes load order matter and hides which module is the lower layer.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-cycles",
      severity: "error",
      comment:
        "Domain folders form a ladder (docs/architecture.md): a folder imports only the folders below it, so each can be read, tested and changed without the ones above.",
      scope: "folder",
      from: { path: "^app/modules/" },
      to: { circular: true },
    },
    {
      name: "scheduling-builds-on-contacts",
      severity: "error",
      comment:
        "Schedules send to contacts and groups; contacts know nothing of schedules (deleting a group with its schedules is scheduling's).",
      from: { path: "^app/modules/contacts/" },
      to: { path: "^app/modules/scheduling/" },
    },
    {
      name: "domain-not-web",
      severity: "error",
      comment: "The domain returns data and throws domain errors; routes turn them into responses, forms and toasts.",
      // Cookies and session storage are the one place the domain speaks HTTP.
      from: { path: "^app/modules/", pathNot: "^app/modules/auth/session\\.server\\.ts$" },
      to: { path: WEB_PACKAGES },
    },
    {
      name: "domain-not-web-indirectly",
      severity: "error",
      comment: "Nor through a helper (the toast and form-failure helpers in app/web are the page layer's).",
      from: { path: "^app/modules/", pathNot: "^app/modules/auth/session\\.server\\.ts$" },
      to: { path: WEB_PACKAGES, reachable: true },
    },
    {
      name: "domain-not-delivery",
      severity: "error",
      comment: "The domain is called by the delivery layers, never the other way.",
      from: { path: "^app/modules/" },
      to: { path: ABOVE_DOMAIN },
    },
    {
      name: "infrastructure-not-domain",
      comment:
        "app/utils and app/queue (environment, clock, logs, Redis, queues) sit under the domain: a domain rule they need is passed in by its owner.",
      severity: "error",
      from: { path: "^app/(utils|queue)/" },
      to: { path: "^(app/modules|app/routes|app/api|app/components|app/web|server|worker)/" },
    },
    {
      name: "data-not-domain",
      severity: "error",
      comment: "app/db holds schema and connections; the domain builds on it.",
      from: { path: "^app/db/" },
      to: { path: "^(app/modules|app/routes|app/api|app/components|app/web|server|worker)/" },
    },
    {
      name: "database-through-the-domain",
      severity: "error",
      comment:
        "Queries and writes live in domain modules (a second engine can go behind app/db); the entries only close the connection.",
      from: { pathNot: "^(app/modules/|app/db/|tests/|scripts/start\\.ts$|worker/index\\.ts$)" },
      to: { path: "^app/db/(client|statements)\\.server\\.ts$" },
    },
    {
      name: "engine-behind-app-db",
      severity: "error",
      comment:
        "Only app/db touches the engine (decision 123): the drivers, Drizzle's dialects and drivers, a raw connection. The domain gets an async executor.",
      from: { path: "^(app|server|worker)/", pathNot: "^app/db/" },
      to: {
        path: "node_modules/(better-sqlite3|pg|drizzle-orm/(better-sqlite3|sqlite-core|sqlite-proxy|node-postgres|postgres-js|pg-core))/",
      },
    },
    {
      name: "api-not-pages",
      severity: "error",
      comment:
        "The REST API and the pages are two delivery layers side by side over the same domain (app/web holds the pages' helpers).",
      from: { path: "^app/api/" },
      to: { path: "^(app/routes|app/components|app/web)/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that does not resolve would hide an edge from the rules above.",
      from: {},
      // ./+types/<route> are React Router's generated route types (npx react-router typegen).
      to: { couldNotResolve: true, pathNot: "/\\+types/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|\\.react-router|data|\\.tmp)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    // package.json "imports" (#app/*) and the .ts extensions the sources import with.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
