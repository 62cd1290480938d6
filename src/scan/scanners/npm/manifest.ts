/**
 * package.json files (every one of a monorepo): the SDK in dependency
 * sections, npm overrides, yarn/bun resolutions, pnpm overrides and bun
 * catalogs. Each entry that selects the V1 SDK, or might, is reported on its key.
 */
import { posix } from "node:path";
import type { Node } from "jsonc-parser";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import {
  judgeNpmSpec,
  mentionsSdk,
  sdkSpecOf,
  splitDescriptor,
  splitPackagePath,
} from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner, RepoFacts } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { DEPENDENCY_FIELDS } from "../../../lang/js/npm-package.js";
import { type JsonProperty, parseJsonTree, propertiesOf, propertyOf, spanOf, stringOf } from "./json.js";
import {
  isReportable,
  type ManifestEntry,
  type ManifestRole,
  manifestFix,
  manifestMessage,
  type NpmManager,
  reportDependency,
} from "./report.js";

export const npmManifestScanner: FileScanner = {
  id: "npm-manifest",
  matches: (file) => posix.basename(file) === "package.json",
  scan: scanPackageJson,
};

export function scanPackageJson(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  const root = parseJsonTree(input.text, sink, { lenient: false });
  if (!root) return sink.findings;
  const dir = posix.dirname(input.file);
  const manager = managerOf(root, dir, input.repo);
  const importsSdk = input.repo.sdkImportingPackages.has(dir);
  const report = (property: JsonProperty, candidate: Candidate): void => {
    const sdkSpec = sdkSpecOf(candidate.name, candidate.spec);
    if (sdkSpec === undefined || refersElsewhere(sdkSpec)) return;
    const judgement = judgeNpmSpec(sdkSpec);
    if (!isReportable(judgement)) return;
    const aliased = candidate.name !== JS_SDK.packageName;
    const entry: ManifestEntry = {
      key: property.key,
      spec: candidate.spec,
      field: candidate.field,
      role: candidate.role,
      judgement,
      manager: candidate.manager ?? manager,
      // An alias is imported under its own name, which the import scan does not follow.
      unused: candidate.role === "dependency" && !aliased && !importsSdk,
      ...(candidate.parent ? { parent: candidate.parent } : {}),
    };
    reportDependency(sink, spanOf(property), judgement, manifestMessage(entry), manifestFix(entry), {
      spec: candidate.spec,
      field: candidate.field,
      role: candidate.role,
      manager: entry.manager,
      jsonPath: candidate.path,
      ...(aliased ? { alias: property.key } : {}),
      ...(entry.unused ? { unused: true } : {}),
    });
  };

  for (const field of DEPENDENCY_FIELDS) {
    for (const property of propertiesOf(propertyOf(root, field))) {
      const spec = stringOf(property.value);
      if (spec === undefined) continue;
      report(property, { name: property.key, spec, field, role: "dependency", path: [field, property.key] });
    }
  }
  walkNpmOverrides(propertyOf(root, "overrides"), ["overrides"], undefined, report);
  for (const property of propertiesOf(propertyOf(root, "resolutions"))) {
    const spec = stringOf(property.value);
    const target = resolutionTarget(property.key);
    if (spec === undefined) continue;
    report(property, {
      name: target.name,
      spec,
      field: "resolutions",
      role: target.parent ? "scoped-override" : "override",
      path: ["resolutions", property.key],
      ...(target.parent ? { parent: target.parent } : {}),
    });
  }
  const pnpmOverrides = propertyOf(propertyOf(root, "pnpm"), "overrides");
  for (const property of propertiesOf(pnpmOverrides)) {
    const spec = stringOf(property.value);
    const target = pnpmOverrideTarget(property.key);
    if (spec === undefined) continue;
    report(property, {
      name: target.name,
      spec,
      field: "pnpm.overrides",
      role: target.parent ? "scoped-override" : "override",
      manager: "pnpm",
      path: ["pnpm", "overrides", property.key],
      ...(target.parent ? { parent: target.parent } : {}),
    });
  }
  // bun reads catalogs from the root manifest, at the top level or under `workspaces`.
  for (const [holder, prefix] of [
    [root, []],
    [propertyOf(root, "workspaces"), ["workspaces"]],
  ] as Array<[Node | undefined, string[]]>) {
    for (const property of propertiesOf(propertyOf(holder, "catalog"))) {
      const spec = stringOf(property.value);
      if (spec === undefined) continue;
      const path = [...prefix, "catalog", property.key];
      report(property, {
        name: property.key,
        spec,
        field: path.slice(0, -1).join("."),
        role: "catalog",
        manager: "bun",
        path,
      });
    }
    for (const group of propertiesOf(propertyOf(holder, "catalogs"))) {
      for (const property of propertiesOf(group.value)) {
        const spec = stringOf(property.value);
        if (spec === undefined) continue;
        const path = [...prefix, "catalogs", group.key, property.key];
        report(property, {
          name: property.key,
          spec,
          field: path.slice(0, -1).join("."),
          role: "catalog",
          manager: "bun",
          path,
        });
      }
    }
  }
  return sink.findings;
}

interface Candidate {
  /** The package the entry is about (after stripping override selectors). */
  name: string;
  spec: string;
  field: string;
  role: ManifestRole;
  path: string[];
  manager?: NpmManager;
  parent?: string;
}

/**
 * `catalog:` is reported where the catalog is defined, `workspace:` is this
 * repository's own package, and `$name` in overrides repeats the dependency.
 */
export function refersElsewhere(spec: string): boolean {
  return spec.startsWith("catalog:") || spec.startsWith("workspace:") || spec.startsWith("$");
}

/**
 * npm overrides nest: `{ "comfydeploy": "..." }` applies everywhere,
 * `{ "some-lib": { "comfydeploy": "..." } }` only under some-lib, and
 * `{ "comfydeploy": { ".": "..." } }` sets the package's own version.
 */
function walkNpmOverrides(
  node: Node | undefined,
  path: string[],
  parent: string | undefined,
  report: (property: JsonProperty, candidate: Candidate) => void,
): void {
  for (const property of propertiesOf(node)) {
    if (property.key === ".") continue;
    const name = splitDescriptor(property.key).name;
    const role: ManifestRole = parent ? "scoped-override" : "override";
    const field = path.join(".");
    const spec = stringOf(property.value);
    if (spec !== undefined) {
      report(property, { name, spec, field, role, path: [...path, property.key], ...(parent ? { parent } : {}) });
      continue;
    }
    const own = propertiesOf(property.value).find((p) => p.key === ".");
    const ownSpec = stringOf(own?.value);
    if (own && ownSpec !== undefined) {
      report(property, {
        name,
        spec: ownSpec,
        field,
        role,
        path: [...path, property.key, "."],
        ...(parent ? { parent } : {}),
      });
    }
    walkNpmOverrides(property.value, [...path, property.key], name, report);
  }
}

/** yarn resolution keys: `comfydeploy`, `**\/comfydeploy`, `some-lib/comfydeploy`, `@scope/lib/**\/comfydeploy`. */
export function resolutionTarget(key: string): { name: string; parent?: string } {
  const packages = splitPackagePath(key).filter((s) => s !== "**" && s !== "*");
  const name = splitDescriptor(packages.at(-1) ?? key).name;
  const parent = packages.at(-2);
  return parent ? { name, parent: splitDescriptor(parent).name } : { name };
}

/** pnpm override keys: `comfydeploy`, `comfydeploy@<1`, `some-lib>comfydeploy`, `some-lib@1>comfydeploy`. */
export function pnpmOverrideTarget(key: string): { name: string; parent?: string } {
  const parts = key.split(">").map((p) => p.trim());
  const name = splitDescriptor(parts.at(-1) ?? key).name;
  const parent = parts.at(-2);
  return parent ? { name, parent: splitDescriptor(parent).name } : { name };
}

/** The package manager that installs this package: its `packageManager` field, else the nearest lockfile. */
function managerOf(root: Node, dir: string, repo: RepoFacts): NpmManager {
  const declared = stringOf(propertyOf(root, "packageManager"))?.split("@")[0];
  if (declared === "npm" || declared === "yarn" || declared === "pnpm" || declared === "bun") return declared;
  const files = fileSetOf(repo);
  for (let current = dir; ; current = posix.dirname(current)) {
    const at = (name: string): boolean => files.has(current === "." ? name : `${current}/${name}`);
    if (at("pnpm-lock.yaml") || at("pnpm-workspace.yaml")) return "pnpm";
    if (at("yarn.lock")) return "yarn";
    if (at("bun.lock") || at("bun.lockb")) return "bun";
    if (at("package-lock.json") || at("npm-shrinkwrap.json")) return "npm";
    if (current === ".") return "npm";
  }
}

const fileSets = new WeakMap<RepoFacts, ReadonlySet<string>>();

/** The repository's files as a set, built once per scan rather than once per manifest. */
function fileSetOf(repo: RepoFacts): ReadonlySet<string> {
  let files = fileSets.get(repo);
  if (!files) {
    files = new Set(repo.files);
    fileSets.set(repo, files);
  }
  return files;
}
