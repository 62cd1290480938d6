/**
 * The sourced-file follow-up: a script that names nothing V1 itself, whose
 * base and path variables come from a sourced library the prefilter kept,
 * is scanned too; scripts that source nothing of it stay out.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { scan } from "../../src/scan/engine.js";
import { tempRepo } from "../helpers/temp-repo.js";

const lib = `#!/usr/bin/env bash
COMFY_BASE="\${COMFY_BASE:-https://www.comfydeploy.com/api}"
RUN_PATH=/run
STATUS_QUERY="?run_id="
`;

const job = `#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/lib.sh"
id=$(curl -fsS -X POST "\${COMFY_BASE}\${RUN_PATH}" --data @"$PAYLOAD" | jq -r .id)
curl -fsS "\${COMFY_BASE}\${RUN_PATH}\${STATUS_QUERY}\${id}"
`;

describe("scripts that source a candidate", () => {
  it("scans a script whose requests are built from a sourced library's variables", async () => {
    const root = tempRepo({
      "bin/lib.sh": lib,
      "bin/nightly.sh": job,
      "bin/cleanup.sh": "#!/bin/sh\nrm -rf /tmp/renders\n",
      "tools/deploy": `#!/usr/bin/env bash\n. ../bin/other.sh\ncurl -X POST "$BASE$RUN_PATH"\n`,
    });
    const result = await scan({ root, hosts: DEFAULT_HOSTS, workers: false });
    const lines = result.findings.map((f) => `${f.file}:${f.line}:${f.ruleId}`).sort();
    expect(lines).toEqual([
      "bin/lib.sh:2:legacy-base-url",
      "bin/nightly.sh:4:legacy-create-run",
      "bin/nightly.sh:5:legacy-get-run",
    ]);
  });
});
