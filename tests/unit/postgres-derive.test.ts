// What the PostgreSQL derivation refuses (decision 126): at start, naming the table and column.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { derivePostgresTables } from "#app/db/postgres/derive.server.ts";

describe("deriving PostgreSQL tables from SQLite ones", () => {
  it("refuses a SQL default it has no PostgreSQL equivalent for", () => {
    const notes = sqliteTable("notes", {
      id: integer("id").primaryKey(),
      body: text("body").default(sql`(hex(randomblob(4)))`),
    });
    expect(() => derivePostgresTables({ notes })).toThrow(
      "notes.body: no PostgreSQL equivalent for the SQL default (hex(randomblob(4)))",
    );
  });

  it("compares a boolean with true or false where SQLite compares it with 1 or 0, and refuses any other use", () => {
    const flagged = (where: (flag: ReturnType<typeof integer>) => ReturnType<typeof sql>) =>
      sqliteTable(
        "flags",
        { id: integer("id").primaryKey(), on: integer("on", { mode: "boolean" }).notNull() },
        (t) => [
          index("flags_on_idx")
            .on(t.id)
            .where(where(t.on as never)),
        ],
      );
    expect(() => derivePostgresTables({ flags: flagged((on) => sql`${on} = 1`) })).not.toThrow();
    expect(() => derivePostgresTables({ flags: flagged((on) => sql`${on}`) })).toThrow(
      "flags index flags_on_idx: compare the boolean on with = 1 or = 0",
    );
  });

  it("refuses a foreign key to a table outside the schema it derives", () => {
    const parents = sqliteTable("parents", { id: integer("id").primaryKey() });
    const children = sqliteTable("children", { parentId: integer("parent_id").references(() => parents.id) });
    expect(() => derivePostgresTables({ children })).toThrow("refers to a table outside the derived schema");
  });
});
