import { stringify } from "csv-stringify/sync";

// A spreadsheet runs a cell starting with one of these as a formula (and tab / CR are read past).
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet shows as text: one that would start a formula gets a leading apostrophe (OWASP). */
export function spreadsheetSafe(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV download produced as it is read: the header, then one `nextRows()` call per pull until it
 * returns []. Nothing is read ahead of the reader, so a million rows never sit in memory.
 */
export function csvStream(
  header: string[],
  nextRows: () => Promise<(string | number | null)[][]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await nextRows();
        const lines = rows.map((row) => row.map(spreadsheetSafe));
        if (!started) lines.unshift(header);
        started = true;
        if (lines.length > 0) controller.enqueue(encoder.encode(stringify(lines)));
        if (rows.length === 0) controller.close();
      },
    },
    // One chunk of rows at a time: the next query runs only when the reader has taken the last.
    { highWaterMark: 0 },
  );
}

/** The headers of a CSV attachment named `filename`. */
export function csvHeaders(filename: string): HeadersInit {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "no-store",
  };
}
