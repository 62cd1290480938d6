/**
 * A repository whose V1 lines carry secrets in every form the redaction
 * knows: no report format of scan, and nothing campaign writes or prints
 * (per-repository reports, campaign.json/.md/.html, its log), shows one.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const SECRET = "SENTINELs3cret42";
const V1 = "https://www.comfydeploy.com/api/run";

/** Every form, each on a line the scanner reports (it names the V1 endpoint), so its excerpt reaches the reports. */
const FILES: Record<string, string> = {
  "src/client.ts": [
    `const A = "https://deploy:${SECRET}@www.comfydeploy.com/api/run";`,
    `const B = "${V1}?run_id=1&token=${SECRET}";`,
    `const C = "${V1}?key=${SECRET}";`,
    `const D = "${V1}?password=${SECRET}&private_token=${SECRET}&access_token=${SECRET}&api_key=${SECRET}";`,
    `const KEY = process.env.COMFY_API_KEY ?? "cd_live_${SECRET}"; fetch("${V1}", { method: "POST", headers: { Authorization: KEY } });`,
    "",
  ].join("\n"),
  "src/client.py": `KEY = os.getenv("COMFY_API_KEY", "${SECRET}"); requests.post("${V1}")\n`,
  "src/client.rb": `KEY = ENV.fetch("COMFY_API_KEY", "${SECRET}"); Net::HTTP.post(URI("${V1}"))\n`,
  "run.sh": `curl -u deploy:${SECRET} -X POST ${V1}\ngit clone deploy:${SECRET}@git.example.com:acme/app.git # then POST ${V1}\n`,
  "config/app.yml": `comfy:\n  url: ${V1}\n  secret: ${SECRET} # ${V1}\n  token: ${SECRET} # ${V1}\n  password: ${SECRET} # ${V1}\n`,
  "config/app.ini": `password = ${SECRET} ; ${V1}\n`,
};

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync(
    "git",
    ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args],
    { cwd, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(result.stderr);
}

/** Every file under a directory, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => [path, readFileSync(path, "utf8")]);
}

describe("no secret from a scanned repository reaches any output", () => {
  let repo: string;
  beforeAll(() => {
    repo = tempRepo(FILES);
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "secrets");
  });

  for (const format of ["text", "json", "markdown", "sarif", "github"]) {
    it(`scan --format ${format}`, () => {
      const result = runCli(["scan", repo, "--format", format]);
      expect(result.status, result.stderr).toBe(1);
      // The findings are there (the lines were reported), only the secrets are not.
      expect(result.stdout).toContain("www.comfydeploy.com");
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
    });
  }

  it("campaign run: repository reports, the dashboard files and the log", () => {
    const out = tempDir();
    const campaign = join(out, "campaign.yml");
    spawnSync("sh", ["-c", `printf 'repositories:\\n  - url: %s\\n' "$0" > "$1"`, repo, campaign]);
    const result = runCli(["campaign", "run", campaign, "--out", join(out, "out"), "--cache", join(out, "cache")], {
      env: { GITHUB_TOKEN: "", GH_TOKEN: "" },
    });
    expect(result.status, result.stderr).not.toBe(2);
    const written = filesUnder(join(out, "out"));
    expect(written.map(([path]) => path.slice(out.length + 1)).sort()).toEqual(
      expect.arrayContaining([
        "out/campaign.html",
        "out/campaign.json",
        "out/campaign.md",
        expect.stringMatching(/^out\/repos\/.+\.json$/),
      ]),
    );
    for (const [path, text] of written) {
      expect(text, path).not.toContain(SECRET);
    }
    // The reports do hold the findings whose lines held the secrets.
    expect(written.find(([path]) => path.endsWith("campaign.json"))![1]).toContain("legacy-create-run");
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });
});
