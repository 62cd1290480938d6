/**
 * Routing tables in configuration: a Kubernetes Ingress (`paths: - path: /api/run,
 * pathType, backend`), a Gateway API HTTPRoute, an Istio VirtualService, a
 * Traefik IngressRoute, Vercel rewrites and redirects. A path there says
 * where the app's own requests arrive, so it is never a request to another
 * service, whatever it spells.
 */
import { parseTree } from "jsonc-parser";
import { parseAllDocuments } from "yaml";
import { fromJson, fromYaml, stringOf, type TreeNode } from "./doc-tree.js";

export interface ValueRange {
  start: number;
  end: number;
}

/** Keys whose value is a routed path. */
const PATH_KEYS = new Set(["path", "pathPrefix", "prefix", "exact", "regex", "source", "src", "from", "match"]);
/** A key beside the path that makes its map a route: where the request goes, or how the path matches. */
const ROUTE_SIBLINGS = new Set([
  "pathType",
  "backend",
  "backendRefs",
  "serviceName",
  "servicePort",
  "destination",
  "dest",
  "route",
  "rewrite",
  "middlewares",
  "services",
  "permanent",
  "statusCode",
]);
/** Keys whose content is routing, at any depth below. */
const ROUTE_CONTAINERS = new Set(["ingress", "ingresses", "rewrites", "redirects"]);
/** Documents that are routing tables as a whole. */
const ROUTE_KINDS = new Set(["Ingress", "HTTPRoute", "GRPCRoute", "VirtualService", "IngressRoute", "Route"]);

/** Offsets of the path values a JSON or YAML document routes; empty when the text does not parse. */
export function routedPaths(text: string, syntax: "json" | "yaml"): ValueRange[] {
  const out: ValueRange[] = [];
  try {
    if (syntax === "json") {
      const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
      if (root) collect(fromJson(root), out);
    } else {
      for (const document of parseAllDocuments(text)) {
        const root = fromYaml(document.contents);
        if (root) collect(root, out);
      }
    }
  } catch {
    // No structure, no routes.
  }
  return out.sort((a, b) => a.start - b.start);
}

export function isInside(ranges: readonly ValueRange[], offset: number): boolean {
  return ranges.some((range) => offset >= range.start && offset < range.end);
}

function collect(root: TreeNode, out: ValueRange[]): void {
  const kind = root.kind === "object" ? stringOf(root.entries.find((e) => e.key === "kind")?.value) : undefined;
  const stack: Array<{ node: TreeNode; routing: boolean }> = [
    { node: root, routing: kind !== undefined && ROUTE_KINDS.has(kind) },
  ];
  while (stack.length > 0) {
    const { node, routing } = stack.pop()!;
    if (node.kind === "array") {
      for (const item of node.items) stack.push({ node: item, routing });
      continue;
    }
    if (node.kind !== "object") continue;
    const isRoute = routing || node.entries.some((e) => ROUTE_SIBLINGS.has(e.key));
    for (const entry of node.entries) {
      if (isRoute && PATH_KEYS.has(entry.key) && entry.value.kind === "scalar")
        out.push({ start: entry.value.start, end: entry.value.end });
      stack.push({ node: entry.value, routing: routing || ROUTE_CONTAINERS.has(entry.key) });
    }
  }
}
