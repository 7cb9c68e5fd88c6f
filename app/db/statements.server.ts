import type { Statement } from "better-sqlite3";
import { getSqlite } from "#app/db/client.server.ts";

/**
 * A raw SQL statement for a hot path, prepared once on first use (code is imported before the
 * migrations run). It runs on the one connection, so inside whatever transaction is open.
 */
export function statement<Params extends unknown[] = unknown[], Row = unknown>(
  source: string,
): () => Statement<Params, Row> {
  let prepared: Statement<Params, Row> | undefined;
  return () => (prepared ??= getSqlite().prepare<Params, Row>(source));
}

const bySource = new Map<string, Statement>();

/** A statement whose SQL is built at run time from a few fixed shapes (e.g. a list's filters), prepared once per shape. */
export function statementFor<Params extends unknown[] = unknown[], Row = unknown>(
  source: string,
): Statement<Params, Row> {
  let prepared = bySource.get(source);
  if (!prepared) {
    prepared = getSqlite().prepare(source);
    bySource.set(source, prepared);
  }
  return prepared as unknown as Statement<Params, Row>;
}
