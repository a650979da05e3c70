import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README and docs/ are read as one book: every relative link must lead somewhere, to a heading
// that exists, and nothing may point outside the repository.

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) markdownFiles(full, out);
    else if (e.name.endsWith(".md")) out.push(full);
  }
  return out;
}

const FILES = [path.resolve("README.md"), ...markdownFiles(path.resolve("docs"))];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

/** Relative links outside code blocks and inline code: [text](target). */
function linksOf(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe("the README and docs/", () => {
  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of FILES) {
      for (const link of linksOf(file)) {
        const [target, anchor] = link.split("#") as [string, string | undefined];
        const resolved = target === "" ? file : path.resolve(path.dirname(file), target);
        const where = `${path.relative(process.cwd(), file)}: ${link}`;
        if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("reach every page from the README", () => {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const link of linksOf(file)) {
        const target = path.resolve(path.dirname(file), link.split("#")[0]!);
        if (target.endsWith(".md") && target.startsWith(path.resolve("docs")) && existsSync(target)) visit(target);
      }
    };
    visit(path.resolve("README.md"));
    expect(FILES.filter((f) => !reached.has(f)).map((f) => path.relative(process.cwd(), f))).toEqual([]);
  });

  it("point nowhere outside the repository", () => {
    for (const file of FILES) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toMatch(/\.\.\/shared|\bissue \d+|\bthe contract\b/i);
    }
  });
});
