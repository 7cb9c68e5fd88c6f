import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith(".md")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1])));
}

/** Relative links of a markdown file (code spans and fenced blocks are not links). */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith("/"));
}

const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

describe("documentation links", () => {
  it("every relative link in README.md and docs/ names a file and heading that exist", () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(file)) {
        const [path, anchor] = link.split("#");
        const target = path ? resolve(dirname(file), path) : file;
        const where = `${relative(root, file)}: ${link}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (anchor && target.endsWith(".md") && !anchors(target).has(anchor))
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the docs index lists every document and decision record", () => {
    const index = readFileSync(join(root, "docs/README.md"), "utf8");
    const unlisted = markdownFiles(join(root, "docs"))
      .map((file) => relative(join(root, "docs"), file))
      .filter((name) => name !== "README.md" && !index.includes(`(${name})`));
    expect(unlisted).toEqual([]);
  });
});
