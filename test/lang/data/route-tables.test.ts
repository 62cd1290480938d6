/**
 * Routing tables in configuration: the paths they route are the app's own,
 * and a V1-looking `/run` there is no request; a client's configured run path is.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../src/core/urls.js";
import { isInside, routedPaths } from "../../../src/lang/data/route-tables.js";
import { fileKind } from "../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../src/scan/scanner.js";
import { legacyUrlScanner } from "../../../src/scan/scanners/text/legacy-urls.js";

const VALUES = [
  "api:",
  "  env:",
  "    COMFY_API_BASE: https://www.comfydeploy.com/api",
  "    COMFY_RUN_PATH: /run",
  "ingress:",
  "  enabled: true",
  "  hosts:",
  "    - host: render.example.com",
  "      paths:",
  "        - path: /api/run",
  "          pathType: Prefix",
  "        - path: /run",
  "          pathType: ImplementationSpecific",
  "",
].join("\n");

function scan(file: string, text: string): string[] {
  const repo: RepoFacts = { files: [file], root: "/repo", sdkImportingPackages: new Set(), read: () => text };
  return legacyUrlScanner
    .scan({ file, text, bytes: Buffer.from(text), kind: fileKind(file), hosts: DEFAULT_HOSTS, repo })
    .map((f) => `${f.line}:${f.ruleId}`);
}

const lines = (text: string, ranges: ReturnType<typeof routedPaths>): number[] =>
  ranges.map((r) => text.slice(0, r.start).split("\n").length);

describe("routing tables", () => {
  it("finds the paths an ingress routes, not a client's settings", () => {
    const routed = routedPaths(VALUES, "yaml");
    expect(lines(VALUES, routed)).toEqual([10, 12]);
    expect(isInside(routed, VALUES.indexOf("/api/run"))).toBe(true);
    expect(isInside(routed, VALUES.indexOf("/run"))).toBe(false);
  });

  it("reads Ingress and VirtualService documents, and Vercel rewrites in JSON", () => {
    const istio = [
      "apiVersion: networking.istio.io/v1beta1",
      "kind: VirtualService",
      "spec:",
      "  http:",
      "    - match:",
      "        - uri:",
      "            prefix: /run",
      "",
    ].join("\n");
    expect(lines(istio, routedPaths(istio, "yaml"))).toEqual([7]);
    const vercel = '{\n  "rewrites": [{ "source": "/api/run", "destination": "https://render.internal/run" }]\n}\n';
    expect(lines(vercel, routedPaths(vercel, "json"))).toEqual([2]);
    expect(routedPaths("{ not: [json", "json")).toEqual([]);
  });

  it("keeps an ingress path quiet in a file that holds the V1 base, and still reports the client's run path", () => {
    expect(scan("deploy/helm/render/values.yaml", VALUES)).toEqual(["3:legacy-base-url", "4:legacy-create-run"]);
  });
});
