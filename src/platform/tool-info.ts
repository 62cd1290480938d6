/** The tool's own name and version, read from its package.json. */
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface ToolInfo {
  name: string;
  version: string;
  /** The repository's web address (package.json `repository.url`), for links and schema ids: the package may not be on a registry. */
  repository: string;
}

const REPOSITORY_FALLBACK = "https://github.com/comfydeploy-migrate/comfydeploy-migrate";

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`. */
export function repositoryWebUrl(url: string | undefined): string {
  const web = (url ?? "").replace(/^git\+/, "").replace(/\.git$/, "");
  return /^https:\/\//.test(web) ? web : REPOSITORY_FALLBACK;
}

function readPackageJson(): ToolInfo {
  // dist/src/platform/tool-info.js sits three levels below the package root, src/platform/tool-info.ts two.
  for (const candidate of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
        repository?: { url?: string };
      };
      if (pkg.name === "comfydeploy-migrate" && pkg.version)
        return { name: pkg.name, version: pkg.version, repository: repositoryWebUrl(pkg.repository?.url) };
    } catch {
      // try the next location
    }
  }
  return { name: "comfydeploy-migrate", version: "0.0.0", repository: REPOSITORY_FALLBACK };
}

export const TOOL = readPackageJson();

/** Versions of the engines the tool runs on, for --version and bug reports. */
export async function engineVersions(): Promise<{
  jscodeshift: string;
  typescript: string;
  tsMorph: string;
  node: string;
}> {
  const jscodeshift = (require("jscodeshift/package.json") as { version: string }).version;
  const tsMorph = (require("ts-morph/package.json") as { version: string }).version;
  return { jscodeshift, typescript: await bundledTypeScriptVersion(), tsMorph, node: process.versions.node };
}

/**
 * The scanner parses with the TypeScript that ts-morph bundles, not with any
 * TypeScript the user has installed. Its version is read from the bundle's
 * opening bytes: loading the compiler costs more than the rest of --version.
 */
async function bundledTypeScriptVersion(): Promise<string> {
  try {
    const handle = await open(require.resolve("@ts-morph/common/dist/typescript.js"));
    try {
      const head = Buffer.alloc(512 * 1024);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const found = /\bvar version = "([^"]+)"/.exec(head.subarray(0, bytesRead).toString("utf8"));
      if (found) return found[1]!;
    } finally {
      await handle.close();
    }
  } catch {
    // an unusual install layout: ask the compiler itself
  }
  const { ts } = await import("ts-morph");
  return ts.version;
}

/**
 * `--version`: the tool's own version alone on the first line (what scripts read),
 * then one line per engine, each named, so no version reads as the tool's.
 * The TypeScript is the one ts-morph bundles, which the scanner parses with.
 */
export async function versionText(): Promise<string> {
  const engines = await engineVersions();
  return [
    `${TOOL.name} ${TOOL.version}`,
    `jscodeshift ${engines.jscodeshift}`,
    `typescript ${engines.typescript}`,
    `ts-morph ${engines.tsMorph}`,
    `node ${engines.node}`,
    "",
  ].join("\n");
}
