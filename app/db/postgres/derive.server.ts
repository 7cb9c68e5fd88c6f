// The PostgreSQL tables, derived at run time from the SQLite ones (app/db/schema, the one schema
// source): same names, keys, indexes and checks, with types that give the domain the same
// JavaScript values on both engines (docs/decisions/126-postgres-schema-from-sqlite.md).
import { Column, is, SQL, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  foreignKey,
  getTableConfig as getPgTableConfig,
  index,
  type PgColumnBuilderBase,
  pgTable,
  type PgTableWithColumns,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { getTableConfig, SQLiteColumn, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";

/** Epoch milliseconds in a bigint, a Date in JavaScript: SQL that compares or buckets milliseconds reads the same. */
const epochMilliseconds = customType<{ data: Date; driverData: number | string }>({
  dataType: () => "bigint",
  toDriver: (value) => value.getTime(),
  fromDriver: (value) => new Date(Number(value)),
});

/** SQLite's `timestamp` mode: epoch seconds, kept in seconds so stored values stay the same. */
const epochSeconds = customType<{ data: Date; driverData: number | string }>({
  dataType: () => "bigint",
  toDriver: (value) => Math.floor(value.getTime() / 1000),
  fromDriver: (value) => new Date(Number(value) * 1000),
});

const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** SQLite's JSON text: the same text in the column, the same parsed value in JavaScript. */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as unknown,
});

/**
 * SQL defaults written for SQLite, and what PostgreSQL computes for them. SQLite's `unixepoch()` is
 * the statement's time: so is `statement_timestamp()` (`now()` would be the transaction's start).
 */
export const SQL_DEFAULTS: Record<string, string> = {
  "(cast(unixepoch('subsec') * 1000 as integer))": "floor(extract(epoch from statement_timestamp()) * 1000)::bigint",
};

const sqliteDialect = new SQLiteSyncDialect();

/** The SQL text of a SQLite expression, as SQLite's migrations write it. */
export const sqliteText = (expression: SQL) => sqliteDialect.sqlToQuery(expression).sql;

/** What the SQLite column builders record beside the common options (Drizzle keeps it protected). */
type SqliteColumnConfig = { mode?: string; autoIncrement?: boolean };

/** The PostgreSQL column keeping `column`'s JavaScript values, without its constraints. */
function columnType(column: SQLiteColumn, where: string): PgColumnBuilderBase {
  const { name } = column;
  const { mode, autoIncrement } = (column as unknown as { config: SqliteColumnConfig }).config;
  switch (column.columnType) {
    case "SQLiteInteger": {
      // int8 arrives as a JavaScript number (the pool's type parser); every value stays far below 2^53.
      const integer = bigint(name, { mode: "number" });
      return autoIncrement ? integer.generatedByDefaultAsIdentity() : integer;
    }
    case "SQLiteTimestamp":
      return mode === "timestamp_ms" ? epochMilliseconds(name) : epochSeconds(name);
    case "SQLiteBoolean":
      return boolean(name);
    case "SQLiteText":
      return column.enumValues?.length ? text(name, { enum: column.enumValues as [string, ...string[]] }) : text(name);
    case "SQLiteTextJson":
      return jsonText(name);
    case "SQLiteReal":
      return doublePrecision(name);
    case "SQLiteBlobBuffer":
      return bytes(name);
    default:
      throw new Error(`${where}: no PostgreSQL type for SQLite's ${column.columnType}`);
  }
}

/** `column`'s default in PostgreSQL: the same value, or the mapped SQL (an unknown SQL default throws). */
function postgresDefault(column: SQLiteColumn, where: string): unknown {
  if (!is(column.default, SQL)) return column.default;
  const source = sqliteText(column.default);
  const mapped = SQL_DEFAULTS[source];
  if (mapped === undefined) throw new Error(`${where}: no PostgreSQL equivalent for the SQL default ${source}`);
  return sql.raw(mapped);
}

function derivedColumn(column: SQLiteColumn, where: string): PgColumnBuilderBase {
  if (column.generated || column.isUnique) {
    throw new Error(`${where}: generated and column-level unique columns are not derived (use an index)`);
  }
  // The builders' methods change the builder in place and return it.
  const builder = columnType(column, where) as PgColumnBuilderBase & {
    notNull(): void;
    primaryKey(): void;
    default(value: unknown): void;
    $defaultFn(fn: () => unknown): void;
    $onUpdateFn(fn: () => unknown): void;
  };
  if (column.notNull && !column.primary) builder.notNull();
  if (column.primary) builder.primaryKey();
  if (column.hasDefault && column.default !== undefined) builder.default(postgresDefault(column, where));
  if (column.defaultFn) builder.$defaultFn(column.defaultFn);
  if (column.onUpdateFn) builder.$onUpdateFn(column.onUpdateFn);
  return builder;
}

/**
 * A SQLite expression (an index column or predicate, a check) over `columns`' PostgreSQL columns.
 * A boolean column compared with 1 or 0 (SQLite has no booleans) is compared with true or false.
 */
function translated(expression: SQL, columns: (column: Column) => Column, where: string): SQL {
  const chunks = expression.queryChunks.map((chunk) => (is(chunk, SQL) ? translated(chunk, columns, where) : chunk));
  const result: unknown[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (!is(chunk, Column)) {
      result.push(chunk);
      continue;
    }
    result.push(columns(chunk));
    if (chunk.columnType !== "SQLiteBoolean") continue;
    const following = chunks[i + 1];
    const next = following === undefined ? "" : sqliteText(sql.join([following as SQL]));
    const comparison = /^\s*(=|<>|!=)\s*([01])\b/.exec(next);
    if (!comparison) throw new Error(`${where}: compare the boolean ${chunk.name} with = 1 or = 0`);
    result.push(sql.raw(` ${comparison[1]} ${comparison[2] === "1"}${next.slice(comparison[0].length)}`));
    i++;
  }
  return sql.join(result as SQL[]);
}

/** What the derivation gives back for each SQLite table: its PostgreSQL table. */
export type DerivedTable = PgTableWithColumns<never>;

/** The export names of a module's SQLite tables. */
type TableNames<Schema> = { [Name in keyof Schema]: Schema[Name] extends SQLiteTable ? Name : never }[keyof Schema];

/**
 * Derives every table of `schema` (a module's exports: its SQLite tables and whatever else it
 * exports), keyed by the same export names. Foreign keys may point at any table of `schema`.
 */
export function derivePostgresTables<Schema extends Record<string, unknown>>(
  schema: Schema,
): Record<TableNames<Schema>, DerivedTable> {
  const derived = new Map<SQLiteTable, DerivedTable>();
  const entries = Object.entries(schema).filter((entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable));
  const tableOf = (table: SQLiteTable, where: string) => {
    const found = derived.get(table);
    if (!found) throw new Error(`${where}: refers to a table outside the derived schema`);
    return found;
  };
  for (const [, table] of entries) {
    const config = getTableConfig(table);
    if (config.uniqueConstraints.length > 0)
      throw new Error(`${config.name}: unique constraints are not derived (use a unique index)`);
    const keyOf = new Map(Object.entries(table).flatMap(([key, value]) => (is(value, Column) ? [[value, key]] : [])));
    const columns = Object.fromEntries(
      config.columns.map((column) => [keyOf.get(column)!, derivedColumn(column, `${config.name}.${column.name}`)]),
    );
    const pgTableDerived = pgTable(config.name, columns, (own) => {
      const ownColumn = (column: Column) => (own as Record<string, Column>)[keyOf.get(column as SQLiteColumn)!]!;
      const foreignColumn = (column: Column, where: string) => {
        const target = tableOf(column.table as SQLiteTable, where);
        const key = Object.entries(column.table).find(([, value]) => value === column)![0];
        return (target as unknown as Record<string, Column>)[key]!;
      };
      return [
        ...config.primaryKeys.map((key) => primaryKey({ columns: key.columns.map(ownColumn) as never })),
        ...config.foreignKeys.map((key) => {
          const where = `${config.name} foreign key ${key.getName()}`;
          const reference = key.reference();
          const built = foreignKey({
            name: key.getName(),
            columns: reference.columns.map(ownColumn) as never,
            foreignColumns: reference.foreignColumns.map((column) => foreignColumn(column, where)) as never,
          });
          if (key.onDelete) built.onDelete(key.onDelete);
          if (key.onUpdate) built.onUpdate(key.onUpdate);
          return built;
        }),
        ...config.indexes.map(({ config: { name, columns: on, unique, where } }) => {
          const place = `${config.name} index ${name}`;
          const parts = on.map((part) =>
            is(part, SQL) ? translated(part, ownColumn, place) : ownColumn(part as Column),
          );
          const built = (unique ? uniqueIndex : index)(name).on(...(parts as [never]));
          return where ? built.where(translated(where, ownColumn, place)) : built;
        }),
        ...config.checks.map((constraint) =>
          check(constraint.name, translated(constraint.value, ownColumn, `${config.name} check ${constraint.name}`)),
        ),
      ];
    }) as unknown as DerivedTable;
    derived.set(table, pgTableDerived);
  }
  // Keys, indexes and checks are built lazily by Drizzle: build them now, so a mistake throws at start.
  for (const table of derived.values()) getPgTableConfig(table);
  return Object.fromEntries(entries.map(([name, table]) => [name, derived.get(table)!])) as Record<
    TableNames<Schema>,
    DerivedTable
  >;
}
