import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** The lines of a markdown section, from its heading to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.replace(/^#+ /, "") === heading && line.startsWith("#"));
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = lines[start].indexOf(" ");
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(" ") <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** Every number a text names, ranges such as 110-112 spelled out. */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/\b(\d{3})(?:-(\d{3}))?\b/g)].flatMap(([, from, to]) => {
    const first = Number(from);
    const last = to ? Number(to) : first;
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  });
}

describe("docs that cannot drift", () => {
  it("architecture.md's module table has one row per folder of app/modules/, and no other", () => {
    const folders = readdirSync(join(root, "app/modules"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const table = section(read("docs/architecture.md"), "Domain modules");
    const rows = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]).sort();
    expect(rows).toEqual(folders);
  });

  it("every decision record says its date and status right under its title, amended when it has an amendment", () => {
    const wrong = readdirSync(join(root, "docs/decisions")).flatMap((name) => {
      const lines = read(`docs/decisions/${name}`).split("\n");
      const [date, status] = [lines[2], lines[3]];
      const dated = /^Date: \d{4}-\d{2}-\d{2}\\$/.test(date);
      const known = /^Status: (accepted|amended \d{4}-\d{2}-\d{2}|superseded by \[\d{3}\])/.test(status);
      const amended = lines.some((line) => /^## Amend/.test(line));
      return dated && known && (!amended || status.startsWith("Status: amended"))
        ? []
        : [`${name}: ${date} / ${status}`];
    });
    expect(wrong).toEqual([]);
  });

  it("docs/README.md names as next or unused only decision numbers no record has, the next above them all", () => {
    const taken = readdirSync(join(root, "docs/decisions"))
      .map((name) => /^(\d{3})-/.exec(name)?.[1])
      .filter((number) => number !== undefined)
      .map(Number);
    const sentence = section(read("docs/README.md"), "Decisions")
      .split("\n")
      .find((line) => /\bnext\b/.test(line));
    expect(sentence, "a line of the Decisions section says which number is next").toBeDefined();
    const free = numbersIn(sentence!);
    expect(free.filter((number) => taken.includes(number))).toEqual([]);
    const next = Number(/\b(\d{3}) (?:is )?next\b/.exec(sentence!)?.[1]);
    expect(next).toBe(Math.max(...taken) + 1);
  });
});
