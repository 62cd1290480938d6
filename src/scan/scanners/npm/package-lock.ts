/**
 * package-lock.json and npm-shrinkwrap.json. Lockfile versions 2 and 3 record
 * every installed copy under `packages` ("" is the root project, other
 * paths without node_modules are workspaces); version 1 only has the nested
 * `dependencies` tree (version 2 carries both, and `packages` wins).
 */
import { posix } from "node:path";
import type { Node } from "jsonc-parser";
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import { mentionsSdk, sdkSpecOf, splitDescriptor } from "../../../knowledge/npm-versions.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { parseJsonTree, propertiesOf, propertyOf, spanOf, stringOf } from "./json.js";
import {
  type Declaration,
  type LockContext,
  manifestOf,
  type Requirer,
  reportLockedSdk,
  siblingManifestDeclarations,
} from "./lockfile.js";
import { DEPENDENCY_FIELDS } from "../../../lang/js/npm-package.js";

const LOCKFILE_NAMES = new Set(["package-lock.json", "npm-shrinkwrap.json"]);

export const npmPackageLockScanner: FileScanner = {
  id: "npm-package-lock",
  matches: (file) => LOCKFILE_NAMES.has(posix.basename(file)),
  scan: scanPackageLock,
};

export function scanPackageLock(input: FileScanInput): Finding[] {
  if (!mentionsSdk(input.text)) return [];
  const sink = new FindingSink(input.file, input.text);
  const root = parseJsonTree(input.text, sink, { lenient: false });
  if (!root) return sink.findings;
  const context: LockContext = { sink, manager: "npm", declarations: [], requirers: [] };
  const packages = propertyOf(root, "packages");
  if (packages?.type === "object") scanPackagesMap(packages, input.file, context);
  else {
    context.declarations.push(...siblingManifestDeclarations(input.file, input.repo));
    scanDependencyTree(propertyOf(root, "dependencies"), context);
  }
  return sink.findings;
}

/** The package name an install path holds: `node_modules/a/node_modules/@s/b` → `@s/b`. */
function installedName(path: string): string | undefined {
  const at = path.lastIndexOf("node_modules/");
  return at < 0 ? undefined : path.slice(at + "node_modules/".length);
}

function scanPackagesMap(packages: Node, lockfile: string, context: LockContext): void {
  const entries = propertiesOf(packages);
  const keys = new Set(entries.map((e) => e.key));
  // Who uses each installed copy, found the way Node resolves: nearest node_modules upwards.
  const declaredBy = new Map<string, Declaration[]>();
  const requiredBy = new Map<string, Requirer[]>();
  for (const { key, value } of entries) {
    const name = stringOf(propertyOf(value, "name")) ?? installedName(key) ?? key;
    const isProject = installedName(key) === undefined;
    for (const field of DEPENDENCY_FIELDS) {
      for (const dep of propertiesOf(propertyOf(value, field))) {
        const spec = stringOf(dep.value);
        if (spec === undefined || sdkSpecOf(dep.key, spec) === undefined) continue;
        const installed = resolveInstall(key, dep.key, keys);
        if (isProject) {
          const declaration = { manifest: manifestOf(lockfile, key), spec };
          context.declarations.push(declaration);
          if (installed) declaredBy.set(installed, [...(declaredBy.get(installed) ?? []), declaration]);
        } else {
          const requirer = { name, version: stringOf(propertyOf(value, "version")) ?? "", spec };
          context.requirers.push(requirer);
          if (installed) requiredBy.set(installed, [...(requiredBy.get(installed) ?? []), requirer]);
        }
      }
    }
  }
  for (const property of entries) {
    const installed = installedName(property.key);
    if (installed === undefined) continue;
    // Aliases are installed under their own name and record the real one in `name`.
    const name = stringOf(propertyOf(property.value, "name")) ?? installed;
    if (name !== JS_SDK.packageName) continue;
    // A workspace package named like the SDK is linked, not installed from the registry.
    if (propertyOf(property.value, "link")?.value === true) continue;
    const version =
      stringOf(propertyOf(property.value, "version")) ?? stringOf(propertyOf(property.value, "resolved")) ?? "";
    reportLockedSdk(context, {
      span: spanOf(property),
      version,
      field: "packages",
      key: property.key,
      declaredBy: declaredBy.get(property.key) ?? [],
      requiredBy: requiredBy.get(property.key) ?? [],
    });
  }
}

/**
 * The install path a dependency of the package at `from` resolves to:
 * `from/node_modules/name`, then the same under each ancestor directory.
 */
function resolveInstall(from: string, name: string, keys: ReadonlySet<string>): string | undefined {
  for (let dir = from; ; ) {
    if (!dir.endsWith("node_modules")) {
      const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (keys.has(key)) return key;
    }
    if (dir === "") return undefined;
    const parent = posix.dirname(dir);
    dir = parent === "." ? "" : parent;
  }
}

/** Version 1: `dependencies` nest per install location; `requires` names what each package needs. */
function scanDependencyTree(tree: Node | undefined, context: LockContext): void {
  collectRequirers(tree, context);
  reportTree(tree, context, []);
}

function collectRequirers(tree: Node | undefined, context: LockContext): void {
  for (const { key, value } of propertiesOf(tree)) {
    for (const dep of propertiesOf(propertyOf(value, "requires"))) {
      const spec = stringOf(dep.value);
      if (spec !== undefined && sdkSpecOf(dep.key, spec) !== undefined) {
        context.requirers.push({ name: key, version: stringOf(propertyOf(value, "version")) ?? "", spec });
      }
    }
    collectRequirers(propertyOf(value, "dependencies"), context);
  }
}

function reportTree(tree: Node | undefined, context: LockContext, parents: string[]): void {
  for (const property of propertiesOf(tree)) {
    const raw = stringOf(propertyOf(property.value, "version")) ?? "";
    // An alias records `npm:comfydeploy@0.0.19` as its version.
    const aliased = raw.startsWith("npm:") ? splitDescriptor(raw.slice("npm:".length)) : undefined;
    const name = aliased?.name ?? property.key;
    if (name === JS_SDK.packageName && !raw.startsWith("file:")) {
      reportLockedSdk(context, {
        span: spanOf(property),
        version: aliased?.range ?? raw,
        field: ["dependencies", ...parents].join("."),
        key: [...parents, property.key].join(" > "),
      });
    }
    reportTree(propertyOf(property.value, "dependencies"), context, [...parents, property.key]);
  }
}
