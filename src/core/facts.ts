/**
 * What a scanner proved about a finding, typed per kind of finding: the
 * transforms that act on a finding (and the online pin resolver) read these
 * facts instead of re-deriving them or parsing messages. Not part of the JSON
 * report contract.
 */
import type { NodeRefKind, NodeRefVerdict } from "../knowledge/node-ref.js";
import type { NpmVerdict } from "../knowledge/npm-versions.js";
import type { PypiVerdict } from "../knowledge/pypi-versions.js";
import type { Span } from "./location.js";
import type { V1Endpoint } from "./urls.js";

/** A V1 `/run` request (JS/TS, Python, any text file). */
export interface EndpointFacts {
  kind: "endpoint";
  endpoint: V1Endpoint;
  /** The HTTP method was read from the request itself, not guessed. */
  methodSeen: boolean;
  /** What the JS/TS analyser read of the request around the URL; absent where it saw no request call. */
  request?: EndpointRequest;
  /** The string literal that writes `/run`, when the finding's span is the whole URL expression or its run_id line (syntax-tree languages). */
  runLiteral?: { start: number; end: number };
  /** The request's URL expression, when the finding stands on the `run_id` entry of a query option written below it (JS/TS, Python): what fix edits. */
  url?: Span;
  /**
   * The request's base is not resolved: it is taken to be the ComfyDeploy
   * base the repository sets here. fix cannot know the base, so it leaves
   * the request for review.
   */
  heldBase?: { file: string; line: number };
}

export interface EndpointRequest {
  /** The client family (`fetch`, `axios`, `got`, `ky`, `undici`, `node-http`); absent for an unknown object's `.get`/`.post`. */
  client?: string;
  /** Upper-case method, when the request says it. */
  method?: string;
  /** Top-level keys of the request body, when it is an object the analyser could read (values followed through names). */
  bodyKeys: readonly string[];
}

export type NpmManager = "npm" | "yarn" | "pnpm" | "bun";

/** npm `comfydeploy` below 2.0.0 (or to review) in a manifest, a pnpm catalog or a lockfile. */
export interface NpmDependencyFacts {
  kind: "npm-dependency";
  verdict: Exclude<NpmVerdict, "v2">;
  /** The spec (a manifest) or the locked version (a lockfile), as written. */
  spec: string;
  /** Where it is declared: `dependencies`, `overrides`, `catalog`, a lockfile's section. */
  field: string;
  /** What the entry does: a dependency, an override of every copy, an override for one package only, a catalog entry; absent in lockfiles. */
  role?: "dependency" | "override" | "scoped-override" | "catalog";
  manager: NpmManager;
  /** package.json: the JSON path of the entry. */
  jsonPath?: readonly string[];
  /** pnpm-workspace.yaml: the YAML path of the entry. */
  yamlPath?: readonly string[];
  /** The name it is installed under (`"cd": "npm:comfydeploy@0.0.19"`). */
  alias?: string;
  /** Declared as a dependency, but no file of the package imports it. */
  unused?: boolean;
  /** Lockfiles: the entry's key and the manifests that declare the SDK. */
  lockKey?: string;
  declaredBy?: readonly string[];
}

/** PyPI `comfydeploy` below the first V2 release (or to review) in a Python manifest or lockfile. */
export interface PypiDependencyFacts {
  kind: "pypi-dependency";
  verdict: Exclude<PypiVerdict, "v2">;
  spec: string;
  reason: string;
  /** The manifest kind, e.g. `requirements`, `pyproject`, `poetry-lock`. */
  manifest: string;
  section?: string;
  extras?: string;
  marker?: string;
  /** An include chain or a Poetry group that declares it. */
  reference?: string;
  lockfile: boolean;
}

/** The Ruby gem, which only ever spoke V1. */
export interface GemDependencyFacts {
  kind: "gem-dependency";
  spec: string;
  /** Gemfile.lock section, or the manifest role (Gemfile, gemspec). */
  where: string;
  lockfile: boolean;
}

/** V1 Python SDK use in code. */
export interface PythonSdkFacts {
  kind: "python-sdk";
  /** The V1 shape, e.g. `run.create`, `ComfyDeploy(bearer_auth=…)`, `object`. */
  v1?: string;
  /** Its V2 counterpart, where one exists. */
  v2?: string;
  v1Result?: string;
  v2Result?: string;
  /** The imported module, for import findings. */
  module?: string;
  /** For result reads: the SDK call whose result is read. */
  call?: string;
  /** What makes the file V1: the manifest line that pins the SDK (`path:line`) and its spec, or the V1-only shape seen. */
  pin?: string;
  spec?: string;
  evidence?: string;
}

/**
 * V1 JS/TS SDK use in code: every name the file binds to the `comfydeploy`
 * package, as the analyser read them, so the transform edits these bindings
 * (found by span) instead of reading the file's imports again.
 */
export interface JsSdkFacts {
  kind: "js-sdk";
  imports: readonly JsSdkImport[];
}

/** One name bound to the SDK package: an import specifier, a default or namespace import, a required name. */
export interface JsSdkImport {
  /** The module specifier as written: the package, or a file inside it (`comfydeploy/dist/index.js`). */
  module: string;
  /** The exported name; `*` for the whole module (`import * as cd`, `const cd = require(…)`), `default` for a default import. */
  imported: string;
  /** The name it has in the file. */
  local: string;
  /** `import type { X }` or `import { type X }`: usable in type positions only. */
  typeOnly: boolean;
  /** The specifier (`X as Y`), the property of a destructured require (`X: Y`), or the binding of the whole module. */
  span: Span;
}

/** V1 Ruby SDK use in code. */
export interface RubySdkFacts {
  kind: "ruby-sdk";
  /** `require "comfydeploy"` as written, or the V1 client constant. */
  require?: string;
  v1?: string;
}

/** Where a node pin was written; tells the transform how to edit it. */
export type NodePinFormat =
  | "dockerfile"
  | "shell"
  | "yaml"
  | "snapshot"
  | "workflow"
  | "cli"
  | "gitmodules"
  /** ComfyUI-Manager install lists (`files: [url]`), which cannot carry a commit. */
  | "install-list"
  /** A vendored copy of the node, versioned by its pyproject.toml. */
  | "pyproject";

/** A ComfyUI node pin that is outdated, unpinned or cannot be judged offline. */
export interface NodePinFacts {
  kind: "node-pin";
  ref: string;
  refKind: NodeRefKind;
  verdict: NodeRefVerdict;
  format: NodePinFormat;
  /** The release tag the pin was matched to, when known. */
  release?: string;
  /** What GitHub's compare API said about the commit (`scan --online`). */
  compare?: string;
}

export type WorkerTagVerdict = "ok" | "outdated" | "floating" | "untagged" | "digest" | "unknown";

/** The partner platform's prebuilt worker image. */
export interface WorkerImageFacts {
  kind: "worker-image";
  image: string;
  tag: string;
  verdict: WorkerTagVerdict;
  digest?: string;
}

export type FindingFacts =
  | EndpointFacts
  | NpmDependencyFacts
  | PypiDependencyFacts
  | GemDependencyFacts
  | PythonSdkFacts
  | JsSdkFacts
  | RubySdkFacts
  | NodePinFacts
  | WorkerImageFacts;

/** The facts of a finding when they are of the given kind. */
export function factsOf<K extends FindingFacts["kind"]>(
  finding: { facts?: FindingFacts },
  kind: K,
): Extract<FindingFacts, { kind: K }> | undefined {
  return finding.facts?.kind === kind ? (finding.facts as Extract<FindingFacts, { kind: K }>) : undefined;
}
