/**
 * The partner worker image when its repository and tag are written apart:
 * Helm values, Terraform and JSON configs. The tag is what to change, so it
 * carries the finding.
 */
import { describe, expect, it } from "vitest";
import { scanWorkerImages } from "../../../../src/scan/scanners/machine/worker-image.js";

const found = (file: string, text: string): string[] =>
  scanWorkerImages(file, text).map(
    (f) => `${f.line}:${f.column}:${f.facts?.kind === "worker-image" ? `${f.facts.verdict}:${f.facts.tag}` : ""}`,
  );

describe("worker image with its tag apart from its repository", () => {
  it("reads Helm's image.repository and image.tag, in either order", () => {
    const values = [
      "api:",
      "  image:",
      "    repository: ghcr.io/acme/render-api",
      '    tag: "1.4.2"',
      "worker:",
      "  image:",
      "    repository: bennykok/comfydeploy-runpod-worker",
      "    tag: v2.2.7",
      "    pullPolicy: IfNotPresent",
      "",
    ].join("\n");
    expect(found("deploy/helm/values.yaml", values)).toEqual(["8:10:outdated:v2.2.7"]);
    const reversed = values.replace(
      "    repository: bennykok/comfydeploy-runpod-worker\n    tag: v2.2.7",
      '    tag: "v2.1.0"\n    repository: docker.io/bennykok/comfydeploy-runpod-worker',
    );
    expect(found("values.yaml", reversed)).toEqual(["7:11:outdated:v2.1.0"]);
    expect(found("values.yaml", values.replace("v2.2.7", "v2.2.10"))).toEqual([]);
  });

  it("reads Kustomize's images entries: name or newName with newTag", () => {
    const kustomization = [
      "apiVersion: kustomize.config.k8s.io/v1beta1",
      "kind: Kustomization",
      "resources:",
      "  - ../../base",
      "images:",
      "  - name: bennykok/comfydeploy-runpod-worker",
      "    newTag: v2.1.0",
      "  - name: worker",
      "    newName: bennykok/comfydeploy-runpod-worker",
      '    newTag: "latest"',
      "  - name: ghcr.io/acme/api",
      "    newTag: 1.2.0",
      "",
    ].join("\n");
    expect(found("k8s/overlays/gpu/kustomization.yaml", kustomization)).toEqual([
      "7:13:outdated:v2.1.0",
      "10:14:floating:latest",
    ]);
    expect(
      found("kustomization.yaml", kustomization.replace("v2.1.0", "v2.2.10").replace('"latest"', "v2.3.0")),
    ).toEqual([]);
    // A name with nothing that sets its tag is not an image selection.
    expect(found("ci.yml", "steps:\n  - name: bennykok/comfydeploy-runpod-worker\n    run: echo hi\n")).toEqual([]);
  });

  it("reads the flow style, list items, Terraform and JSON", () => {
    expect(found("values.yaml", "image: { repository: bennykok/comfydeploy-runpod-worker, tag: latest }\n")).toEqual([
      "1:63:floating:latest",
    ]);
    const items = [
      "workers:",
      "  - name: gpu",
      "    repository: bennykok/comfydeploy-runpod-worker",
      "    tag: v2.2.9",
      "  - name: cpu",
      "    repository: bennykok/comfydeploy-runpod-worker",
      "",
    ].join("\n");
    // The second item has no tag of its own: the first one's is not borrowed.
    expect(found("values.yaml", items)).toEqual(["4:10:outdated:v2.2.9", "6:17:untagged:"]);
    const terraform = [
      'resource "runpod_template" "worker" {',
      '  repository = "bennykok/comfydeploy-runpod-worker"',
      '  tag        = "v2.2.5"',
      "}",
      "",
    ].join("\n");
    expect(found("main.tf", terraform)).toEqual(["3:17:outdated:v2.2.5"]);
    const json = '{\n  "image": {\n    "repository": "bennykok/comfydeploy-runpod-worker",\n    "tag": "dev"\n  }\n}\n';
    expect(found("worker.json", json)).toEqual(["4:13:floating:dev"]);
  });

  it("leaves a repository whose tag is written empty (the chart's appVersion) and mentions in prose", () => {
    const values = 'image:\n  repository: bennykok/comfydeploy-runpod-worker\n  tag: ""\n';
    expect(found("values.yaml", values)).toEqual([]);
    expect(found("README.md", "We used to run bennykok/comfydeploy-runpod-worker on RunPod.\n")).toEqual([]);
  });
});
