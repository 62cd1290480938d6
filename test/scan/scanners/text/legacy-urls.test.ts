/**
 * The generic text scan's request context: a request's body is looked for in
 * its statement and the lines around it, but not across another request, so
 * a look-alike route below a V1-shaped call does not borrow its body.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { RepoFacts } from "../../../../src/scan/scanner.js";
import { legacyUrlScanner } from "../../../../src/scan/scanners/text/legacy-urls.js";

function scan(file: string, text: string): string[] {
  const repo: RepoFacts = { files: [file], root: "/repo", sdkImportingPackages: new Set(), read: () => text };
  return legacyUrlScanner
    .scan({ file, text, bytes: Buffer.from(text), kind: fileKind(file), hosts: DEFAULT_HOSTS, repo })
    .map((f) => `${f.line}:${f.ruleId}`);
}

describe("request context", () => {
  const queue = [
    "#!/bin/sh",
    "curl -s -X POST https://api.example.net/v2/queue \\",
    '  -d \'{"deployment_id":"\'"${ID}"\'"}\'',
  ];

  it("does not give a POST the body of the request above it", () => {
    const text = [...queue, `curl -s -X POST "http://gateway.internal/api/run" -d '{"prompt":"smoke"}'`, ""].join("\n");
    expect(scan("smoke.sh", text)).toEqual([]);
  });

  it("still finds a body built on the lines before its own request", () => {
    const text = [
      "#!/bin/sh",
      `BODY='{"deployment_id":"'"$ID"'"}'`,
      `curl -s -X POST "https://render.example.org/api/run" -d "$BODY"`,
      "",
    ].join("\n");
    expect(scan("smoke.sh", text)).toEqual(["3:other-host-v1-shape"]);
  });
});
