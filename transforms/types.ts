/**
 * The contract between the fix runner and the transforms. A transform gets a
 * file's text (LF line endings, no BOM: the runner restores both), the scan's
 * findings for that file, and returns the new text plus what it did.
 */
import type { Finding } from "../src/core/finding.js";
import type { RuleId } from "../src/rules/catalog.js";
import type { HostSet } from "../src/core/urls.js";

/** The transforms' ids, from the registry (transforms/index.ts) that lists their metas. */
export type TransformId = (typeof import("./index.js"))["TRANSFORM_IDS"][number];

export interface FixEvent {
  /** rewrite: the code now talks V2; marker: a review marker explains what a person must do. */
  kind: "rewrite" | "marker";
  ruleId: RuleId;
  /** 1-based line in the input text. */
  line: number;
  message: string;
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
  /** What the scan found in this file (locations refer to the text as it was scanned). */
  findings: readonly Finding[];
  nodeRef: NodeRefTarget;
  /** Package directories (holding a package.json) where some V1 SDK use could not be rewritten. */
  packagesWithUnmigratedSdk: ReadonlySet<string>;
}

export interface FileFix {
  text: string;
  events: FixEvent[];
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
