import { defineConfig } from "drizzle-kit";

// The PostgreSQL migrations, from the tables derived from the SQLite schema (decision 126).
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/postgres/schema.server.ts",
  out: "./drizzle-pg",
});
