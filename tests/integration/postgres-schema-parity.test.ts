// The PostgreSQL schema (derived from app/db/schema, migrated from drizzle-pg/) against the SQLite
// one (migrated from drizzle/), read from both catalogs: tables, columns, nullability, defaults, keys,
// indexes with their predicates, checks and triggers agree but for the reviewed differences below.
import Database from "better-sqlite3";
import pg from "pg";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { SQL_DEFAULTS } from "#app/db/postgres/derive.server.ts";
import { freshDatabase } from "#tests/support/postgres.ts";

/** What differs on purpose (decision 126); anything else is a difference the test reports. */
const INTENDED = {
  // FTS5's virtual table and its shadow tables and triggers: PostgreSQL has a trigram index instead.
  sqliteOnlyTables: [
    "orders_search",
    "orders_search_config",
    "orders_search_data",
    "orders_search_docsize",
    "orders_search_idx",
  ],
  sqliteOnlyTriggers: ["orders_search_delete", "orders_search_insert", "orders_search_update"],
  postgresOnlyIndexes: ["orders.index.orders_search_trgm"],
  // The rollup's appended changes, folded into message_rollup (decision 131).
  postgresOnlyTables: ["message_rollup_changes"],
  // SQLite's storage classes, and the PostgreSQL types that keep the same JavaScript values.
  types: { integer: ["bigint", "boolean"], text: ["text"], real: ["double precision"], blob: ["bytea"] } as Record<
    string,
    string[]
  >,
  // A boolean is stored 1 or 0 in SQLite: `flag = 1` there is `flag = true` in PostgreSQL.
  booleanComparisons: true,
  // SQL defaults written for SQLite, and PostgreSQL's (app/db/postgres/derive.server.ts).
  sqlDefaults: SQL_DEFAULTS,
};

/** A schema as `key -> description` lines (`users.column.email`: `text not null`), easy to compare and to read. */
type Catalog = Map<string, string>;

/**
 * One text for an expression on either engine: quotes, table qualifiers, casts, parentheses,
 * case and spacing dropped (string literals kept as written); `= ANY (ARRAY[...])` read as `in (...)`.
 */
export function normalised(expression: string, booleans: Set<string> = new Set()): string {
  return expression
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      let text = part
        .toLowerCase()
        .replace(/[`"]/g, "")
        .replace(/\b\w+\.(\w+)/g, "$1")
        .replace(/::\w+(\s+(varying|precision))?/g, "");
      for (const column of booleans) {
        text = text.replace(
          new RegExp(`\\b${column}\\s*(=|<>)\\s*([01])\\b`, "g"),
          (_, operator: string, bit: string) => `${column} ${operator} ${bit === "1"}`,
        );
      }
      return text;
    })
    .join("")
    .replace(/=\s*any\s*\(\s*array\s*\[([^\]]*)\]\s*\)/g, " in ($1)")
    .replace(/<>\s*all\s*\(\s*array\s*\[([^\]]*)\]\s*\)/g, " not in ($1)")
    .replace(/[()]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The text inside the parentheses that open at `open` (its matching close found by depth). */
function parenthesised(text: string, open: number): { inside: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    if (text[i] === ")" && --depth === 0) return { inside: text.slice(open + 1, i), end: i + 1 };
  }
  throw new Error(`unbalanced parentheses in ${text}`);
}

/** Splits on the commas outside parentheses. */
function topLevelItems(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "(") depth++;
    if (list[i] === ")") depth--;
    if (list[i] === "," && depth === 0) {
      items.push(list.slice(start, i));
      start = i + 1;
    }
  }
  return [...items, list.slice(start)];
}

/** An index's `CREATE [UNIQUE] INDEX` text, either engine's, as `unique (a, b) where p`. */
function indexDescription(definition: string, booleans: Set<string>): string {
  const unique = /^create unique index/i.test(definition);
  const on = /\son\s+[^(]+/i.exec(definition)!;
  const { inside, end } = parenthesised(definition, on.index + on[0].length);
  const where = /^\s*where\s+([\s\S]*)$/i.exec(definition.slice(end));
  const columns = topLevelItems(inside).map((item) => normalised(item.replace(/\s+using\s+\w+/i, "")));
  return [
    unique ? "unique" : "index",
    `(${columns.join(", ")})`,
    ...(where ? [`where ${normalised(where[1]!, booleans)}`] : []),
  ].join(" ");
}

const ACTIONS: Record<string, string> = {
  a: "no action",
  r: "restrict",
  c: "cascade",
  n: "set null",
  d: "set default",
};

function sqliteCatalog(file: string): Catalog {
  const db = new Database(file, { readonly: true });
  const catalog: Catalog = new Map();
  try {
    const all = <T>(source: string) => db.prepare(source).all() as T[];
    const tables = all<{ name: string; sql: string }>(
      "select name, sql from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> '__drizzle_migrations'",
    );
    for (const table of tables) {
      catalog.set(`${table.name}`, "table");
      if (/^create virtual table/i.test(table.sql)) continue;
      const columns = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `pragma table_info("${table.name}")`,
      );
      const autoIncrement = /\bautoincrement\b/i.test(table.sql);
      for (const column of columns) {
        const identity = autoIncrement && column.pk === 1 ? " identity" : "";
        const nullability = column.notnull || column.pk ? "not null" : "null";
        const fallback = column.dflt_value === null ? "" : ` default ${normalised(column.dflt_value)}`;
        catalog.set(
          `${table.name}.column.${column.name}`,
          `${column.type.toLowerCase()} ${nullability}${identity}${fallback}`,
        );
      }
      const key = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
      if (key.length) catalog.set(`${table.name}.primary key`, key.map((column) => column.name).join(", "));
      const references = all<{
        id: number;
        table: string;
        from: string;
        to: string;
        on_delete: string;
        on_update: string;
      }>(`pragma foreign_key_list("${table.name}")`);
      for (const id of new Set(references.map((reference) => reference.id))) {
        const parts = references.filter((reference) => reference.id === id);
        const from = parts.map((part) => part.from).join(", ");
        const to = `${parts[0]!.table}(${parts.map((part) => part.to).join(", ")})`;
        const actions = `on delete ${parts[0]!.on_delete.toLowerCase()} on update ${parts[0]!.on_update.toLowerCase()}`;
        catalog.set(`${table.name}.foreign key.${from}`, `${to} ${actions}`);
      }
      for (const check of table.sql.matchAll(/constraint\s+["`]?(\w+)["`]?\s+check\s*\(/gi)) {
        const { inside } = parenthesised(table.sql, check.index + check[0].length - 1);
        catalog.set(`${table.name}.check.${check[1]}`, normalised(inside));
      }
    }
    for (const index of all<{ name: string; tbl_name: string; sql: string }>(
      "select name, tbl_name, sql from sqlite_master where type = 'index' and sql is not null",
    )) {
      catalog.set(`${index.tbl_name}.index.${index.name}`, indexDescription(index.sql, new Set()));
    }
    for (const trigger of all<{ name: string; tbl_name: string }>(
      "select name, tbl_name from sqlite_master where type = 'trigger'",
    )) {
      catalog.set(`${trigger.tbl_name}.trigger.${trigger.name}`, "trigger");
    }
  } finally {
    db.close();
  }
  return catalog;
}

async function postgresCatalog(url: string): Promise<Catalog> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const catalog: Catalog = new Map();
  try {
    const rows = async <T extends pg.QueryResultRow>(source: string) => (await client.query<T>(source)).rows;
    for (const { table_name } of await rows<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public'",
    )) {
      catalog.set(table_name, "table");
    }
    for (const column of await rows<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
      is_identity: string;
    }>("select * from information_schema.columns where table_schema = 'public'")) {
      const nullability = column.is_nullable === "NO" ? "not null" : "null";
      const identity = column.is_identity === "YES" ? " identity" : "";
      const fallback = column.column_default === null ? "" : ` default ${normalised(column.column_default)}`;
      catalog.set(
        `${column.table_name}.column.${column.column_name}`,
        `${column.data_type} ${nullability}${identity}${fallback}`,
      );
    }
    const booleans = new Set(
      (
        await rows<{ column_name: string }>(
          "select distinct column_name from information_schema.columns where table_schema = 'public' and data_type = 'boolean'",
        )
      ).map((row) => row.column_name),
    );
    const columnsOf = `(select string_agg(a.attname, ', ' order by k.n) from unnest(c.conkey) with ordinality k(attnum, n)
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum)`;
    const foreignColumnsOf = `(select string_agg(a.attname, ', ' order by k.n) from unnest(c.confkey) with ordinality k(attnum, n)
        join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum)`;
    for (const constraint of await rows<{
      table_name: string;
      name: string;
      type: string;
      columns: string;
      foreign_table: string | null;
      foreign_columns: string | null;
      on_delete: string;
      on_update: string;
      definition: string;
    }>(
      `select c.conrelid::regclass::text as table_name, c.conname as name, c.contype as type, ${columnsOf} as columns,
         c.confrelid::regclass::text as foreign_table, ${foreignColumnsOf} as foreign_columns,
         c.confdeltype as on_delete, c.confupdtype as on_update, pg_get_constraintdef(c.oid) as definition
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'`,
    )) {
      if (constraint.type === "p") catalog.set(`${constraint.table_name}.primary key`, constraint.columns);
      if (constraint.type === "f") {
        const actions = `on delete ${ACTIONS[constraint.on_delete]} on update ${ACTIONS[constraint.on_update]}`;
        catalog.set(
          `${constraint.table_name}.foreign key.${constraint.columns}`,
          `${constraint.foreign_table}(${constraint.foreign_columns}) ${actions}`,
        );
      }
      if (constraint.type === "c") {
        const { inside } = parenthesised(constraint.definition, constraint.definition.indexOf("("));
        catalog.set(`${constraint.table_name}.check.${constraint.name}`, normalised(inside));
      }
    }
    for (const index of await rows<{ tablename: string; indexname: string; indexdef: string }>(
      `select i.tablename, i.indexname, i.indexdef from pg_indexes i
       join pg_index x on x.indexrelid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass
       where i.schemaname = 'public' and not x.indisprimary`,
    )) {
      catalog.set(`${index.tablename}.index.${index.indexname}`, indexDescription(index.indexdef, booleans));
    }
    for (const trigger of await rows<{ table_name: string; name: string }>(
      "select tgrelid::regclass::text as table_name, tgname as name from pg_trigger where not tgisinternal",
    )) {
      catalog.set(`${trigger.table_name}.trigger.${trigger.name}`, "trigger");
    }
  } finally {
    await client.end();
  }
  return catalog;
}

/** The SQLite catalog as PostgreSQL should have it, once the intended differences are applied. */
function expectedOnPostgres(sqlite: Catalog, postgres: Catalog): Catalog {
  const defaults = new Map(
    Object.entries(INTENDED.sqlDefaults).map(([source, target]) => [normalised(source), normalised(target)]),
  );
  const booleans = new Set(
    [...postgres].filter(([, description]) => description.startsWith("boolean ")).map(([key]) => key.split(".")[2]!),
  );
  const expected: Catalog = new Map();
  for (const [key, description] of sqlite) {
    const [table, kind] = key.split(".");
    if (INTENDED.sqliteOnlyTables.includes(table!)) continue;
    if (kind === "trigger" && INTENDED.sqliteOnlyTriggers.includes(key.split(".")[2]!)) continue;
    if (kind === "column") {
      const [, type, rest] = /^(\w+) (.*)$/.exec(description)!;
      const actual = postgres.get(key)?.split(" ")[0];
      const types = INTENDED.types[type!] ?? [];
      // The PostgreSQL type is one of those this storage class maps to (which one: derive.server.ts).
      const mapped = actual && types.includes(actual) ? actual : types.join("|");
      const withDefault = rest!.replace(/ default (.*)$/, (_, value: string) => {
        if (mapped === "boolean") return ` default ${value === "1" ? "true" : value === "0" ? "false" : value}`;
        return ` default ${defaults.get(value) ?? value}`;
      });
      expected.set(key, `${mapped} ${withDefault}`);
      continue;
    }
    if (kind === "index" && INTENDED.booleanComparisons && description.includes(" where ")) {
      const [head, where] = description.split(" where ");
      expected.set(key, `${head} where ${normalised(where!, booleans)}`);
      continue;
    }
    expected.set(key, description);
  }
  for (const key of INTENDED.postgresOnlyIndexes) expected.set(key, postgres.get(key) ?? "missing");
  for (const [key, description] of postgres)
    if (INTENDED.postgresOnlyTables.includes(key.split(".")[0]!)) expected.set(key, description);
  return expected;
}

/** Every line that is not the same on both: missing on one side, or described differently. */
function differences(expected: Catalog, actual: Catalog): string[] {
  const lines: string[] = [];
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const want = expected.get(key);
    const got = actual.get(key);
    if (want === got) continue;
    if (got === undefined) lines.push(`only in SQLite: ${key} = ${want}`);
    else if (want === undefined) lines.push(`only in PostgreSQL: ${key} = ${got}`);
    else lines.push(`${key}: SQLite ${want}, PostgreSQL ${got}`);
  }
  return lines.sort();
}

let postgresUrl: string;
const scratch = mkdtempSync(join(tmpdir(), "smsgw-parity-"));

beforeAll(async () => {
  postgresUrl = await freshDatabase({ migrated: true });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the migrated PostgreSQL schema matches the migrated SQLite one but for the intended differences", async () => {
  const sqlite = sqliteCatalog(inject("templateDb"));
  const postgres = await postgresCatalog(postgresUrl);
  expect(differences(expectedOnPostgres(sqlite, postgres), postgres)).toEqual([]);
  // It did compare something: every table, and the intended differences are really there.
  expect([...postgres.keys()].filter((key) => !key.includes("."))).toHaveLength(51);
  expect(postgres.get("orders.index.orders_search_trgm")).toMatch(/^index \(pickup_name gin_trgm_ops, /);
  expect(postgres.get("senders.index.senders_user_default_unique")).toBe("unique (user_id) where is_default = true");
  expect(postgres.get("message_rollup_changes.column.bucket")).toBe("bigint not null");
});

test("a column or an index added on one side only is reported", async () => {
  const file = join(scratch, "changed.db");
  copyFileSync(inject("templateDb"), file);
  const sqlite = new Database(file);
  sqlite.exec("alter table users add column nickname text");
  sqlite.close();
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query("create index users_time_zone_idx on users (time_zone)");
  await client.end();

  const postgres = await postgresCatalog(postgresUrl);
  expect(differences(expectedOnPostgres(sqliteCatalog(file), postgres), postgres)).toEqual([
    "only in PostgreSQL: users.index.users_time_zone_idx = index (time_zone)",
    "only in SQLite: users.column.nickname = text null",
  ]);
});
