// The engine-specific parts of Drizzle's query builder the domain names, so only app/db imports the
// SQLite dialect (decision 123): a second engine changes these lines, not the modules.
export { alias } from "drizzle-orm/sqlite-core";
export type { SQLiteTable as Table, SQLiteUpdateSetSource as UpdateSet } from "drizzle-orm/sqlite-core";
