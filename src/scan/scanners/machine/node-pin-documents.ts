/**
 * Node pins in structured documents, JSON or YAML, found by shape wherever
 * they are nested:
 * - machine and ComfyUI-Manager snapshots: `git_custom_nodes` keyed by repo
 *   URL with a `hash` (missing or HEAD: unpinned), `cnr_custom_nodes` with a
 *   registry version;
 * - workflow `docker_command_steps`: `custom-node` steps (`data.hash`, or the
 *   SHA in `data.meta.commit_url`) and `custom-node-manager` steps (`node_id`, `version`);
 * - Manager install lists (`files: [url]`), which carry no commit;
 * - any object naming the repository (`url`, `repo`, `git`, …) with a sibling ref (`hash`, `commit`, `sha`, `rev`, `ref`, `tag`);
 * - any string value naming the node with a ref: `owner/repo@ref`, `<url>@ref`, `<url>#ref`.
 */
import { NODE_COMPONENT } from "../../../knowledge/migration.js";
import { decideGitRef, decideRegistryVersion } from "../../../knowledge/node-ref.js";
import {
  member,
  spanIn,
  stringOf,
  type TreeNode,
  type TreeObject,
  type TreeScalar,
  walk,
} from "../../../lang/data/doc-tree.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { isNodeRepositoryUrl, nodeSourceOf } from "./node-source-url.js";

export function documentPins(root: TreeNode, source: string): NodePinSite[] {
  const sites: NodePinSite[] = [];
  /** `data` objects of workflow steps, so their `files` list is not read again as an install list. */
  const stepData = new Set<TreeNode>();
  for (const node of walk(root)) {
    if (node.kind === "scalar") {
      const site = pinnedValue(node, source);
      if (site) sites.push(site);
    }
    if (node.kind !== "object") continue;
    const gitNodes = member(node, "git_custom_nodes");
    if (gitNodes?.kind === "object") sites.push(...snapshotGitPins(gitNodes, source));
    const registryNodes = member(node, "cnr_custom_nodes");
    if (registryNodes?.kind === "object") sites.push(...snapshotRegistryPins(registryNodes, source));
    const step = workflowStepPin(node, source);
    if (step) {
      sites.push(step.site);
      stepData.add(step.data);
    }
    if (!stepData.has(node)) sites.push(...installListPins(node, source), ...urlAndHashPins(node, source));
  }
  return sites;
}

/**
 * Any other object that names the node repository by `url` and pins it by a
 * sibling `hash` (machine descriptors, workflow dependency lists), whatever
 * the order of the two keys.
 */
function urlAndHashPins(node: TreeObject, source: string): NodePinSite[] {
  if (!URL_KEYS.some((key) => isNodeRepositoryUrl(stringOf(member(node, key)) ?? ""))) return [];
  const hashNode = REF_KEYS.map((key) => member(node, key)).find((ref) => stringOf(ref) !== undefined);
  const hash = stringOf(hashNode);
  if (!hashNode || !hash) return [];
  return [{ decision: decideGitRef(hash), format: "snapshot", ...spanIn(source, hashNode, hash) }];
}

/** Keys that name a repository, and keys that pin it, in snapshots, lock files and machine descriptors. */
const URL_KEYS = ["url", "repo", "repository", "git", "git_url", "source"];
const REF_KEYS = ["hash", "commit", "commit_hash", "commit_sha", "sha", "rev", "revision", "ref", "tag"];

function snapshotGitPins(nodes: TreeObject, source: string): NodePinSite[] {
  const sites: NodePinSite[] = [];
  for (const entry of nodes.entries) {
    if (!isNodeRepositoryUrl(entry.key)) continue;
    const hashNode = member(entry.value, "hash");
    const hash = stringOf(hashNode);
    const where = hashNode && hash ? spanIn(source, hashNode, hash) : spanIn(source, entry.keyNode);
    sites.push({ decision: decideGitRef(hash), format: "snapshot", ...where });
  }
  return sites;
}

function snapshotRegistryPins(nodes: TreeObject, source: string): NodePinSite[] {
  return nodes.entries
    .filter((entry) => entry.key.toLowerCase() === NODE_COMPONENT.registryName)
    .map((entry) => {
      const version = stringOf(entry.value);
      return {
        decision: decideRegistryVersion(version),
        format: "snapshot" as const,
        ...spanIn(source, entry.value, version),
      };
    });
}

function workflowStepPin(node: TreeObject, source: string): { site: NodePinSite; data: TreeNode } | undefined {
  const type = stringOf(member(node, "type"));
  const data = member(node, "data");
  if (data?.kind !== "object") return undefined;
  if (type === "custom-node") {
    const urlNode = member(data, "url");
    if (!isNodeRepositoryUrl(stringOf(urlNode) ?? "")) return undefined;
    const hashNode = member(data, "hash");
    const hash = stringOf(hashNode);
    if (hashNode && hash)
      return { data, site: { decision: decideGitRef(hash), format: "workflow", ...spanIn(source, hashNode, hash) } };
    const commitUrlNode = member(member(data, "meta"), "commit_url");
    const commit = /\/commit\/([0-9a-f]{7,40})\b/i.exec(stringOf(commitUrlNode) ?? "")?.[1];
    if (commitUrlNode && commit)
      return {
        data,
        site: { decision: decideGitRef(commit), format: "workflow", ...spanIn(source, commitUrlNode, commit) },
      };
    return { data, site: { decision: decideGitRef(undefined), format: "workflow", ...spanIn(source, urlNode!) } };
  }
  if (type === "custom-node-manager") {
    const idNode = member(data, "node_id");
    if (stringOf(idNode)?.toLowerCase() !== NODE_COMPONENT.registryName) return undefined;
    const versionNode = member(data, "version");
    const version = stringOf(versionNode);
    const where = versionNode && version ? spanIn(source, versionNode, version) : spanIn(source, idNode!);
    return { data, site: { decision: decideRegistryVersion(version), format: "workflow", ...where } };
  }
  return undefined;
}

/** `{ "files": ["https://github.com/BennyKok/comfyui-deploy"], "install_type": "git-clone" }`: no commit to pin. */
function installListPins(node: TreeObject, source: string): NodePinSite[] {
  const files = member(node, "files");
  if (files?.kind !== "array" || member(node, "hash")) return [];
  return files.items
    .filter((item) => isNodeRepositoryUrl(stringOf(item) ?? ""))
    .map((item) => ({
      decision: decideGitRef(undefined),
      format: "install-list" as const,
      ...spanIn(source, item, stringOf(item)),
    }));
}

/** A list entry or value such as `"bennykok/comfyui-deploy@7e640a0"`: only a commit, tag or version counts. */
function pinnedValue(node: TreeScalar, source: string): NodePinSite | undefined {
  const value = stringOf(node);
  const ref = value === undefined ? undefined : nodeSourceOf(value)?.ref;
  if (!ref) return undefined;
  const decision = decideGitRef(ref.text);
  if (decision.refKind === "none") return undefined;
  return { decision, format: "install-list", ...spanIn(source, node, ref.text) };
}
