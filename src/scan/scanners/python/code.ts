/**
 * Python source files: the legacy host in string literals (errors) and in
 * comments and docstrings (warnings), V1 endpoints in HTTP calls, and V1
 * Python SDK shapes. It reports every legacy host mention in the file, so
 * the generic text scan skips Python files.
 */
import type { Finding } from "../../../core/finding.js";
import { legacyHostMessage } from "../../messages.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import type { HeldBase } from "../../held-base.js";
import { FindingSink } from "../../scanner-helpers.js";
import { currentHostsAsLegacy, findLegacyHostMentions, type HostSet } from "../../../core/urls.js";
import { endpointFindingInput, findPythonEndpoints } from "./http.js";
import { heldBaseMessage, unknownBaseMessage } from "../../messages.js";
import { PyModule } from "../../../lang/python/module.js";
import { projectPinFor } from "./project-pin.js";
import { findPythonSdkUses } from "./sdk.js";
import { reExports, vendoredClasses, vendoredExports, type VendoredExport, vendoredUses } from "./vendored-client.js";
import { moduleFile } from "../../../lang/python/imports.js";
import { PyPackage } from "../../../lang/python/package.js";
import { pythonVendoredClassMessage, pythonVendoredUseMessage } from "./messages.js";
import { isString, type PyStringToken, skipReplacementField, tokenizePython } from "../../../lang/python/tokens.js";
import { PyValues } from "../../../lang/python/values.js";
import { RepoEnv } from "../../js/repo-env.js";
import { type AirflowConnection, airflowConnections } from "./airflow-connections.js";

export const pythonCodeScanner: FileScanner = {
  id: "python-code",
  matches: (file) => /\.pyw?$/i.test(file),
  scan: scanPythonCode,
  coversLegacyUrls: true,
};

export function scanPythonCode({ file, text, hosts, repo }: FileScanInput): Finding[] {
  const values = valuesOf(repo, file, hosts, text);
  const module = values.module;
  const sink = new FindingSink(file, text);
  const seen = new Set<string>();
  const add = (start: number, end: number, input: Parameters<FindingSink["atOffset"]>[2]): void => {
    const key = `${input.ruleId}:${start}`;
    if (seen.has(key)) return;
    seen.add(key);
    sink.atOffset(start, end, input);
  };

  reportHostMentions(module, hosts, add);

  const endpoints = findPythonEndpoints(module, values, hosts, heldBaseOf(file, repo));
  for (const use of endpoints) {
    const first = module.tokens[use.range.lo]!;
    const last = module.tokens[use.range.hi - 1]!;
    // A read whose run_id entry sits below the URL is reported there; fix still edits the URL.
    const at = use.runIdAt && {
      start: module.tokens[use.runIdAt.lo]!.start,
      end: module.tokens[use.runIdAt.hi - 1]!.end,
    };
    const url = { start: first.start, end: last.end };
    if (use.heldBase && use.endpoint !== "run-ambiguous") {
      // The base is not known: fix leaves the request for review.
      add((at ?? url).start, (at ?? url).end, {
        ruleId: use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run",
        message: heldBaseMessage(use.endpoint, use.heldBase),
        fix: "review",
        facts: {
          kind: "endpoint",
          endpoint: use.endpoint,
          methodSeen: use.method !== undefined,
          heldBase: use.heldBase,
          ...(at ? { url } : {}),
        },
      });
      continue;
    }
    if (use.unknownBase && use.endpoint !== "run-ambiguous") {
      add((at ?? url).start, (at ?? url).end, {
        ruleId: "v1-shape-unknown-base",
        message: unknownBaseMessage(use.endpoint),
        severity: "warning",
        fix: "manual",
      });
      continue;
    }
    const input = endpointFindingInput(use);
    add((at ?? url).start, (at ?? url).end, {
      ...input,
      facts: { kind: "endpoint", endpoint: use.endpoint, methodSeen: use.method !== undefined, ...(at ? { url } : {}) },
    });
  }

  for (const use of findPythonSdkUses(values, () => projectPinFor(repo, file))) {
    add(use.start, use.end, {
      ruleId: use.ruleId,
      message: use.message,
      ...(use.fix ? { fix: use.fix } : {}),
      facts: use.facts,
    });
  }
  for (const [name, at] of vendoredClasses(module, endpoints, hosts))
    add(at.start, at.end, { ruleId: "vendored-v1-client", message: pythonVendoredClassMessage(name) });
  const packageInit = /(^|\/)__init__\.py$/.test(file);
  for (const use of vendoredUses(module, (dotted, name) => importedVendoredExport(file, dotted, name, hosts, repo))) {
    // A package's `__init__.py` re-exporting its own copy is part of the copy, not app code.
    if (packageInit && use.ruleId === "v1-sdk-import" && use.name.startsWith(".")) continue;
    // Import and construction are edited by hand once the copy is replaced: fix leaves them to a person.
    add(use.start, use.end, {
      ruleId: use.ruleId,
      message: pythonVendoredUseMessage(use.ruleId, use.name),
      fix: "manual",
    });
  }
  return sink.findings;
}

const packages = new WeakMap<FileScanInput["repo"], PyPackage>();

/** The file's values in its repository's package, so names imported from other files are followed. */
function valuesOf(repo: FileScanInput["repo"], file: string, hosts: HostSet, text?: string): PyValues {
  let pkg = packages.get(repo);
  if (!pkg) {
    const env = new RepoEnv(new Set(repo.files), (f) => repo.read(f), hosts);
    pkg = new PyPackage(
      repo.files.filter((f) => /\.pyw?$/i.test(f)),
      (f) => repo.read(f),
      { env: (name) => env.value(name), allFiles: repo.files, isApiBase: (value) => isComfyApiBase(value, hosts) },
    );
    packages.set(repo, pkg);
  }
  const values = pkg.valuesOf(file, text);
  if (values && (text === undefined || values.module.text === text)) return values;
  const module = new PyModule(text ?? "");
  return new PyValues(module, values?.link, values?.sources);
}

const vendoredCache = new WeakMap<FileScanInput["repo"], Map<string, ReadonlyMap<string, VendoredExport>>>();

/** What `from <dotted> import <name>` in `file` imports when it is a copy of the V1 client defined in another file of the repository. */
function importedVendoredExport(
  file: string,
  dotted: string,
  name: string,
  hosts: HostSet,
  repo: FileScanInput["repo"],
): VendoredExport | undefined {
  const target = moduleFile(dotted, file, repo.files);
  if (!target || target === file) return undefined;
  return exportsOf(target, hosts, repo, 0).get(name);
}

/** The copies of the V1 client a module defines or re-exports (`from .client import ComfyDeploy` in a package's `__init__.py`). */
function exportsOf(
  target: string,
  hosts: HostSet,
  repo: FileScanInput["repo"],
  depth: number,
): ReadonlyMap<string, VendoredExport> {
  let cache = vendoredCache.get(repo);
  if (!cache) {
    cache = new Map();
    vendoredCache.set(repo, cache);
  }
  const cached = cache.get(target);
  if (cached) return cached;
  const found = new Map<string, VendoredExport>();
  cache.set(target, found); // cycle guard
  const text = repo.read(target) ?? "";
  if (/\b(def|class)\b|\bimport\b/.test(text)) {
    const values = valuesOf(repo, target, hosts, text);
    const module = values.module;
    if (/\b(def|class)\b/.test(text)) {
      const endpoints = findPythonEndpoints(module, values, hosts, heldBaseOf(target, repo));
      for (const [name, info] of vendoredExports(module, endpoints, hosts)) found.set(name, info);
    }
    if (depth < 3) {
      for (const { dotted, name, local } of reExports(module)) {
        const from = moduleFile(dotted, target, repo.files);
        const info = from && from !== target ? exportsOf(from, hosts, repo, depth + 1).get(name) : undefined;
        if (info && !found.has(local)) found.set(local, info);
      }
    }
  }
  return found;
}

type Add = (start: number, end: number, input: Parameters<FindingSink["atOffset"]>[2]) => void;

/** Legacy host mentions: in code strings as errors, in comments and docstrings as warnings. */
function reportHostMentions(module: PyModule, hosts: HostSet, add: Add): void {
  const docstrings = new Set<number>();
  for (const line of module.lines)
    if (module.isStringStatement(line)) for (let i = line.lo; i < line.hi; i++) docstrings.add(i);
  module.tokens.forEach((token, index) => {
    if (isString(token)) reportInString(module.text, token, hosts, docstrings.has(index), add);
  });
  for (const comment of module.seq.comments) {
    if (!mentionsLegacyHost(comment.text, hosts)) continue;
    for (const mention of findLegacyHostMentions(comment.text, hosts)) {
      if (mention.kind !== "api") continue;
      add(comment.start + mention.start, comment.start + mention.end, {
        ruleId: "legacy-base-url",
        message: legacyHostMessage("api", mention.url),
        // A comment: fix leaves prose to a person.
        severity: "warning",
        fix: "manual",
      });
    }
  }
}

function reportInString(text: string, token: PyStringToken, hosts: HostSet, prose: boolean, add: Add): void {
  if (!mentionsLegacyHost(text.slice(token.bodyStart, token.bodyEnd), hosts)) return;
  const formatted = token.prefix.includes("f") || token.prefix.includes("t");
  // Replacement fields are blanked (offsets kept) and their own string literals scanned on their own.
  let body = text.slice(token.bodyStart, token.bodyEnd);
  if (formatted) {
    const fields: Array<[number, number]> = [];
    for (let pos = 0; pos < body.length; pos++) {
      if (body[pos] === "{" && body[pos + 1] === "{") pos++;
      else if (body[pos] === "{") {
        const close = skipReplacementField(text, token.bodyStart + pos + 1, false, token.bodyEnd) - token.bodyStart;
        fields.push([pos, close]);
        pos = close - 1;
      }
    }
    for (const [from, to] of fields) {
      const inner = tokenizePython(text, token.bodyStart + from + 1, token.bodyStart + to - 1);
      for (const nested of inner.tokens) if (isString(nested)) reportInString(text, nested, hosts, prose, add);
      body = `${body.slice(0, from)}${" ".repeat(to - from)}${body.slice(to)}`;
    }
  }
  for (const mention of findLegacyHostMentions(body, hosts)) {
    const bare = mention.kind === "bare" && body.trim() === mention.url;
    if (!(mention.kind === "api" || (bare && !prose))) continue;
    add(token.bodyStart + mention.start, token.bodyStart + mention.end, {
      ruleId: "legacy-base-url",
      message: legacyHostMessage(mention.kind === "bare" ? "bare" : "api", mention.url),
      ...(prose ? { severity: "warning" as const, fix: "manual" as const } : {}),
    });
  }
}

/** A cheap test before the full host pattern runs. */
export function mentionsLegacyHost(text: string, hosts: HostSet): boolean {
  const lower = text.toLowerCase();
  return hosts.legacy.some((host) => lower.includes(host));
}

/** A ComfyDeploy API base on either host (the V1 paths are V1 on both). */
function isComfyApiBase(value: string, hosts: HostSet): boolean {
  return [...findLegacyHostMentions(value, hosts), ...findLegacyHostMentions(value, currentHostsAsLegacy(hosts))].some(
    (m) => m.start === 0 && m.kind !== "page",
  );
}

const connectionCache = new WeakMap<FileScanInput["repo"], Map<string, AirflowConnection>>();

/** The file, the repository's ComfyDeploy base and its Airflow connections, for requests on bases the file does not resolve. */
function heldBaseOf(
  file: string,
  repo: FileScanInput["repo"],
): { file: string; legacyBase?: HeldBase; airflowConnection: (id: string) => AirflowConnection | undefined } {
  const airflowConnection = (id: string): AirflowConnection | undefined => {
    let table = connectionCache.get(repo);
    if (!table) {
      table = airflowConnections(repo.files, (f) => repo.read(f));
      connectionCache.set(repo, table);
    }
    return table.get(id.toLowerCase());
  };
  return { file, ...(repo.legacyBase ? { legacyBase: repo.legacyBase } : {}), airflowConnection };
}
