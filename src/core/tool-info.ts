/** The tool's own name and version, read from its package.json. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

function readPackageJson(): { name: string; version: string } {
  // dist/src/core/tool-info.js sits three levels below the package root, src/core/tool-info.ts two.
  for (const candidate of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "comfydeploy-migrate" && pkg.version) return { name: pkg.name, version: pkg.version };
    } catch {
      // try the next location
    }
  }
  return { name: "comfydeploy-migrate", version: "0.0.0" };
}

export const TOOL = readPackageJson();

/** Versions of the engines the tool runs on, for --version and bug reports. */
export async function engineVersions(): Promise<{ jscodeshift: string; typescript: string; node: string }> {
  const jscodeshift = (require("jscodeshift/package.json") as { version: string }).version;
  const { ts } = await import("ts-morph");
  return { jscodeshift, typescript: ts.version, node: process.versions.node };
}
