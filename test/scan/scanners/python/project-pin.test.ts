/** The SDK version a Python file runs with, when no manifest declares it but the repository installs a release file. */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { FileScanInput, RepoFacts } from "../../../../src/scan/scanner.js";
import { scanPythonCode } from "../../../../src/scan/scanners/python/code.js";
import { projectPinFor } from "../../../../src/scan/scanners/python/project-pin.js";

function repoOf(files: Record<string, string>): RepoFacts {
  return { files: Object.keys(files).sort(), root: "/repo", sdkImportingPackages: new Set(), read: (f) => files[f] };
}

const worker = "from comfydeploy import ComfyDeploy\n\nclient = ComfyDeploy(api_key='k')\n";

describe("Python SDK pins from release files", () => {
  it("takes a V1 wheel the image installs as the pin, so the SDK import is V1", () => {
    const files = {
      "app.py": 'image = modal.Image.debian_slim().run_commands("pip install /w/comfydeploy-0.3.0-py3-none-any.whl")\n',
      "README.md": "We used comfydeploy-0.2.0-py3-none-any.whl once.\n",
      "worker.py": worker,
    };
    const repo = repoOf(files);
    expect(projectPinFor(repo, "worker.py")).toEqual({
      verdict: "v1",
      releaseFile: true,
      source: "app.py:1",
      spec: "==0.3.0",
    });
    const input: FileScanInput = {
      file: "worker.py",
      text: worker,
      bytes: Buffer.from(worker),
      kind: fileKind("worker.py"),
      hosts: DEFAULT_HOSTS,
      repo,
    };
    // fix cannot replace the installed file, so the import stays a person's job.
    expect(scanPythonCode(input).map((f) => `${f.line}:${f.ruleId}:${f.fix}`)).toContain("1:v1-sdk-import:manual");
  });

  it("leaves the manifest's pin in charge, and ignores release files named only in prose", () => {
    expect(
      projectPinFor(
        repoOf({
          "requirements.txt": "comfydeploy==0.6.1\n",
          "wheels.txt": "comfydeploy-0.3.0-py3-none-any.whl\n",
          "w.py": worker,
        }),
        "w.py",
      ).verdict,
    ).toBe("v2");
    expect(
      projectPinFor(repoOf({ "README.md": "comfydeploy-0.3.0-py3-none-any.whl\n", "w.py": worker }), "w.py").verdict,
    ).toBe("none");
  });
});
