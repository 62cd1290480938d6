/**
 * Shell requests on a variable the script's sourced env file sets to a
 * ComfyDeploy base are V1 requests; the same shape on another service's
 * variable, or on a variable nothing sets, stays a warning or quiet.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { legacyUrlScanner } from "../../../../src/scan/scanners/text/legacy-urls.js";

function findings(file: string, files: Record<string, string>) {
  const repo: RepoFacts = {
    files: Object.keys(files).sort(),
    root: "/repo",
    sdkImportingPackages: new Set(),
    read: (f) => files[f],
  };
  const text = files[file]!;
  return legacyUrlScanner.scan({
    file,
    text,
    bytes: Buffer.from(text),
    kind: fileKind(file),
    hosts: DEFAULT_HOSTS,
    repo,
  });
}

function scan(file: string, files: Record<string, string>): string[] {
  return findings(file, files).map((f) => `${f.line}:${f.ruleId}`);
}

const script = (name: string, source = "source .env") => `#!/usr/bin/env bash
cd "$(dirname "$0")/.."
${source}
curl -X POST "$${name}/run" -d "{\\"deployment_id\\": \\"$ID\\"}"
curl "$${name}/run?run_id=$RUN"
`;

describe("bases from sourced env files", () => {
  const env = "COMFY_BASE=https://www.comfydeploy.com/api\nRUNPOD_BASE=https://api.runpod.ai/v2/x\n";

  it("reads the base of a sourced .env from the committed example beside it", () => {
    expect(scan("scripts/run.sh", { ".env.example": env, "scripts/run.sh": script("COMFY_BASE") })).toEqual([
      "4:legacy-create-run",
      "5:legacy-get-run",
    ]);
  });

  it("reads a sourced file by its path from the script, and the V2 host's base as well", () => {
    const files = {
      "ops/prod.env": "export API=https://api.comfydeploy.com/api\n",
      "ops/call.sh": script("API", '. "$(dirname "$0")/prod.env"'),
    };
    expect(scan("ops/call.sh", files)).toEqual(["4:legacy-create-run", "5:legacy-get-run"]);
  });

  it("reads a sourced shell file that exports the base", () => {
    const files = {
      "bin/env.sh": '#!/usr/bin/env bash\nexport COMFY_API_BASE="https://www.comfydeploy.com/api"\n',
      "bin/call.sh": script("COMFY_API_BASE", '. "$(dirname "$0")/env.sh"'),
    };
    expect(scan("bin/call.sh", files)).toEqual(["4:legacy-create-run", "5:legacy-get-run"]);
  });

  it("takes a base the sourced file sets as proven, so fix rewrites the requests without review", () => {
    const files = { ".env.example": env, "scripts/run.sh": script("COMFY_BASE") };
    const found = findings("scripts/run.sh", files);
    expect(found.map((f) => f.ruleId)).toEqual(["legacy-create-run", "legacy-get-run"]);
    expect(found.filter((f) => f.fix === "review").map((f) => f.ruleId)).toEqual([]);
  });

  it("leaves another service's variable, and a script that sources nothing, to the shape rules", () => {
    expect(
      scan("scripts/run.sh", { ".env.example": env, "scripts/run.sh": script("RUNPOD_BASE") }).filter((f) =>
        f.includes("legacy"),
      ),
    ).toEqual([]);
    expect(
      scan("scripts/run.sh", { ".env.example": env, "scripts/run.sh": script("COMFY_BASE", "") }).filter((f) =>
        f.includes("legacy"),
      ),
    ).toEqual([]);
  });

  it("reads a sourced config of any name, with the base as a ${VAR:-default}, from a script without an extension that sends through its own wrapper", () => {
    const files = {
      "lib/config.sh":
        'COMFY_API="${COMFY_API:-https://www.comfydeploy.com/api}"\nOTHER_API="${OTHER_API:-https://api.replicate.com/v1}"\n',
      "bin/render": [
        "#!/usr/bin/env bash",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        'source "$HERE/../lib/config.sh"',
        "body=$(jq -n --arg d \"$1\" '{deployment_id: $d}')",
        'run_id=$(api_post "${COMFY_API}/run" "$body" | jq -r .run_id)',
        'api_get "${COMFY_API}/run?run_id=${run_id}"',
        'api_post "${OTHER_API}/run" "$body"',
        "",
      ].join("\n"),
    };
    expect(scan("bin/render", files).filter((f) => f.includes("legacy"))).toEqual([
      "5:legacy-create-run",
      "6:legacy-get-run",
    ]);
  });
});
