/**
 * The contract between the fix runner and the transforms. A transform gets a
 * file's text (LF line endings, no BOM: the runner restores both), the scan's
 * findings for that file, and returns the new text plus what it did.
 */
import type { Finding } from "../core/finding.js";
import type { RuleId } from "../rules/catalog.js";
import type { RepoFacts } from "../scan/scanner.js";
import type { HostSet } from "../core/urls.js";

export const TRANSFORM_IDS = ["v2-endpoints", "v2-sdk", "sdk-dependency", "node-pin"] as const;
export type TransformId = (typeof TRANSFORM_IDS)[number];

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
  repo: RepoFacts;
  /** Package directories (holding a package.json) where some V1 SDK use could not be rewritten. */
  packagesWithUnmigratedSdk: ReadonlySet<string>;
}

export interface FileFix {
  text: string;
  events: FixEvent[];
}

export interface Transform {
  id: TransformId;
  title: string;
  /** What it rewrites, one line each (for --list-transforms and the docs). */
  rewrites: readonly string[];
  /** What it leaves a review marker for instead. */
  marks: readonly string[];
  appliesTo(file: string): boolean;
  apply(text: string, context: FixContext): FileFix | Promise<FileFix>;
}
