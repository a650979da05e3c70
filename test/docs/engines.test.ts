import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// `npm ci` warns about any installed package whose `engines.node` excludes the running Node. The
// Node versions package.json supports must therefore be ones every locked package supports, and
// the README must say the same.

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { engines?: { node?: string }; os?: string[] }> };
// The first release of each line the range admits (20.19.0, 22.13.0, 24.0.0).
const floors = pkg.engines.node.split("||").map((r) => semver.minVersion(r.trim())!.version);

describe("the supported Node versions", () => {
  it("are supported by every package of the lock file that installs on this platform", () => {
    expect(floors.length).toBeGreaterThan(1);
    const refused = floors.flatMap((v) =>
      Object.entries(lock.packages)
        .filter(([, p]) => p.engines?.node && !(p.os && !p.os.includes(process.platform)) && !semver.satisfies(v, p.engines.node))
        .map(([name, p]) => `${name} wants node ${p.engines!.node}, not ${v}`),
    );
    expect(refused).toEqual([]);
  });

  it("are the ones the README and the getting-started guide name", () => {
    const short = floors.map((v) => v.replace(/(\.0)+$/, ""));
    const said = `Node.js ${short[0]}+ (or ${short.slice(1).join("+, ")}+)`;
    expect(said).toBe("Node.js 20.19+ (or 22.13+, 24+)");
    for (const file of ["README.md", "docs/getting-started.md"]) expect(readFileSync(file, "utf8"), file).toContain(said);
  });
});
