/**
 * Shell requests whose V1 path is a variable: the script is read with the
 * files it sources, each request's URL expanded as the shell would, and the
 * finding goes on the request's line, not on the line that defines the path.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { legacyUrlScanner } from "../../../../src/scan/scanners/text/legacy-urls.js";

function scan(file: string, files: Record<string, string>): string[] {
  const repo: RepoFacts = {
    files: Object.keys(files).sort(),
    root: "/repo",
    sdkImportingPackages: new Set(),
    read: (f) => files[f],
    legacyBaseHeld: true,
    legacyBase: { file: "scripts/lib.sh", line: 2 },
  };
  const text = files[file]!;
  return legacyUrlScanner
    .scan({ file, text, bytes: Buffer.from(text), kind: fileKind(file), hosts: DEFAULT_HOSTS, repo })
    .map((f) => `${f.line}:${f.ruleId}`);
}

const lib = `#!/usr/bin/env bash
COMFY_BASE="\${COMFY_BASE:-https://www.comfydeploy.com/api}"
RUNPOD_BASE="https://api.runpod.ai/v2/abc123"
readonly RUN_PATH="/run"
QUEUE_PATH=/run/deployment/queue
`;

const nightly = `#!/usr/bin/env bash
set -euo pipefail
. "$(dirname "$0")/lib.sh"

body=$(jq -n --arg d "$DEPLOYMENT_ID" '{deployment_id: $d}')
run_id=$(curl -fsS -X POST "\${COMFY_BASE}\${RUN_PATH}" \\
  -H "Authorization: Bearer $COMFY_API_KEY" -d "$body" | jq -r .run_id)
query="?run_id=\${run_id}"
curl -fsS "\${COMFY_BASE}\${RUN_PATH}\${query}" -H "Authorization: Bearer $COMFY_API_KEY"
`;

describe("shell requests on a path variable", () => {
  it("expands base and path from the sourced file and reports the request lines", () => {
    const files = { "scripts/lib.sh": lib, "scripts/nightly.sh": nightly };
    expect(scan("scripts/nightly.sh", files)).toEqual(["6:legacy-create-run", "9:legacy-get-run"]);
  });

  it.each([
    '. "$(dirname "$0")/lib.sh"',
    'source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"',
    'source "${0%/*}/lib.sh"',
    '. "$(dirname "$(readlink -f "$0")")/lib.sh"',
    "source scripts/lib.sh",
  ])("reads the sourced file named as %s", (line) => {
    const files = { "scripts/lib.sh": lib, "scripts/nightly.sh": nightly.replace('. "$(dirname "$0")/lib.sh"', line) };
    expect(scan("scripts/nightly.sh", files)).toEqual(["6:legacy-create-run", "9:legacy-get-run"]);
  });

  it("reads a default written in quotes of its own", () => {
    const quoted = lib.replace(
      '"${COMFY_BASE:-https://www.comfydeploy.com/api}"',
      '${COMFY_BASE:-"https://www.comfydeploy.com/api"}',
    );
    expect(quoted).not.toBe(lib);
    expect(scan("scripts/nightly.sh", { "scripts/lib.sh": quoted, "scripts/nightly.sh": nightly })).toEqual([
      "6:legacy-create-run",
      "9:legacy-get-run",
    ]);
  });

  it("leaves the line that defines the path quiet", () => {
    expect(scan("scripts/lib.sh", { "scripts/lib.sh": lib })).toEqual(["2:legacy-base-url"]);
  });

  it("follows a URL variable built from the path variable, and a wrapper named for its method", () => {
    const script = `#!/bin/sh
. ./lib.sh
STATUS_URL="$COMFY_BASE$RUN_PATH?run_id=$1"
api_get() { curl -fsS -H "Authorization: Bearer $KEY" "$1"; }
api_get "$STATUS_URL"
api_post "$COMFY_BASE$RUN_PATH" '{"deployment_id":"x"}'
comfy POST "$COMFY_BASE$RUN_PATH" '{"deployment_id":"y"}'
echo "posting to $COMFY_BASE$RUN_PATH"
`;
    expect(scan("scripts/poll.sh", { "scripts/lib.sh": lib, "scripts/poll.sh": script })).toEqual([
      "5:legacy-get-run",
      "6:legacy-create-run",
      "7:legacy-create-run",
    ]);
  });

  it("stays quiet for RunPod's /run, the V2 path and ComfyUI's local route built the same way", () => {
    const script = `#!/usr/bin/env bash
source "$(dirname "$0")/lib.sh"
LOCAL="http://127.0.0.1:8188"
LOCAL_PATH=/comfyui-deploy/run
curl -X POST "$RUNPOD_BASE$RUN_PATH" -d '{"input":{}}'
curl -X POST "$COMFY_BASE$QUEUE_PATH" -d '{"deployment_id":"x"}'
curl -X POST "$LOCAL$LOCAL_PATH" -d '{}'
`;
    expect(scan("scripts/other.sh", { "scripts/lib.sh": lib, "scripts/other.sh": script })).toEqual([]);
  });
});
