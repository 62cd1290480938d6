/**
 * The contract between the fix runner and the transforms. A transform gets a
 * file's text (LF line endings, no BOM: the runner restores both), the scan's
 * findings for that file, and returns the new text plus what it did.
 */
import type { Finding } from "../src/core/finding.js";
import type { RuleId } from "../src/rules/catalog.js";
import type { HostSet } from "../src/core/urls.js";
import type { SourceStyle } from "./lib/source-style.js";

/** The transforms' ids, from the registry (transforms/index.ts) that lists their metas. */
export type TransformId = typeof import("./index.js")["TRANSFORM_IDS"][number];

export interface FixEvent {
  /** rewrite: the code now talks V2; marker: a review marker explains what a person must do. */
  kind: "rewrite" | "marker";
  ruleId: RuleId;
  /** 1-based line in the input text. */
  line: number;
  message: string;
  /** A configuration value the migrated code reads that must change with it (an env variable naming the API base). */
  env?: EnvChange;
  /** A marker over code left as it was, still on the V1 SDK (not a note on code already moved to V2). */
  leavesV1?: boolean;
}

export interface EnvChange {
  variable: string;
  /** The value it needs now. */
  value: string;
}

export interface NodeRefTarget {
  /** Full commit SHA to pin the ComfyUI node at. */
  commit: string;
  /** The tag it corresponds to, e.g. v2.1.0. */
  tag: string;
  /** Registry version for `comfy node install comfyui-deploy@<version>` and cnr_custom_nodes. */
  version: string;
}

export interface FixContext {
  /** Repository-relative POSIX path. */
  file: string;
  hosts: HostSet;
  /** What the scan found in this file, moved onto the text the part receives (spans and lines hold for it). */
  findings: readonly Finding[];
  nodeRef: NodeRefTarget;
  /** Package directories (holding a package.json) whose code still uses the V1 SDK after fix, with those files. */
  unmigratedSdkUse: ReadonlyMap<string, readonly string[]>;
  /** Remove SDK dependencies no code of their package imports (`fix --remove-unused`). */
  removeUnused: boolean;
  /** Asks for a support module in the file's package: the runner writes it there once. */
  useSupportModule(module: SupportModule): SupportImport;
}

/** How a module is written: TypeScript, an ES module, or CommonJS. */
export type ModuleFlavor = "ts" | "esm" | "cjs";

/**
 * A module a transform adds to a package once, when some part needs it (the
 * V1 compat module): placed beside the package's first file with a finding of
 * `anchorRules`, in that file's flavour, and never overwritten.
 */
export interface SupportModule {
  /** File name without extension. */
  name: string;
  anchorRules: readonly RuleId[];
  /** Its source for a file at `absolutePath`, formatted like `style`, with only the exports in `used` (all when undefined) and what they need. */
  source(flavor: ModuleFlavor, absolutePath: string, style: SourceStyle, used?: ReadonlySet<string>): Promise<string>;
  /** The event that announces it in the fix summary. */
  announce: FixEvent;
}

export interface SupportImport {
  /** What the asking file imports it as: a relative specifier in the file's own style. */
  specifier: string;
  /** Whether the asking file imports with `import` or `require`. */
  syntax: "esm" | "cjs";
}

export interface FileFix {
  text: string;
  events: FixEvent[];
  /** Sites left as they are on purpose where no marker can say so (JSON, lockfiles), and why. */
  notes?: SiteNote[];
}

/** A finding a part leaves as it is, and why: fix lists these, so no site is dropped silently. */
export interface SiteNote {
  /** 1-based line in the part's input (the runner moves it onto the file's final text). */
  line: number;
  reason: string;
}

/** What a transform is, for --list-transforms, the docs and the registry's checks. */
export interface TransformMeta {
  id: string;
  title: string;
  /** The rules whose findings it rewrites or marks. */
  rules: readonly RuleId[];
  /** What it rewrites, one line each (for --list-transforms and the docs). */
  rewrites: readonly string[];
  /** What it leaves a review marker for instead. */
  marks: readonly string[];
}

/** One kind of file a transform handles: a jscodeshift codemod for JS/TS, targeted text edits elsewhere. */
export interface TransformPart {
  appliesTo(file: string): boolean;
  apply(text: string, context: FixContext): FileFix | Promise<FileFix>;
}

export interface Transform extends TransformMeta {
  id: TransformId;
  /** Tried in order; every part that applies to a file runs on it. */
  parts: readonly TransformPart[];
}
