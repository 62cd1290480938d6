import { describe, expect, it } from "vitest";
import { excerptOf, redactDeep, redactSecrets } from "../../src/core/redact.js";

const SECRET = "s3cretSENTINEL42";

/** Each form a secret takes in a line of a repository, with what must stay readable around it. */
const FORMS: Array<[string, string, string]> = [
  ["URL userinfo", `fetch("https://deploy:${SECRET}@api.comfydeploy.com/api/run")`, "api.comfydeploy.com/api/run"],
  ["URL token as user", `git clone https://${SECRET}@github.com/acme/app.git`, "github.com/acme/app.git"],
  ["scp-style remote", `url = deploy:${SECRET}@git.example.com:acme/app.git`, "git.example.com:acme/app.git"],
  ["query token=", `GET https://api.comfydeploy.com/api/run?run_id=1&token=${SECRET}`, "run_id=1"],
  ["query key=", `https://api.comfydeploy.com/api/run?key=${SECRET}`, "api.comfydeploy.com"],
  ["query password=", `https://h.example/login?user=a&password=${SECRET}`, "user=a"],
  ["query private_token=", `https://gitlab.example/api?private_token=${SECRET}`, "gitlab.example"],
  ["query access_token=", `https://h.example/x?access_token=${SECRET}#top`, "#top"],
  ["query api_key=", `curl "https://h.example/x?api_key=${SECRET}"`, "h.example"],
  ["process.env fallback", `const key = process.env.COMFY_API_KEY ?? "cd_${SECRET}";`, "process.env.COMFY_API_KEY"],
  ["process.env || fallback", `const key = process.env["COMFY_KEY"] || '${SECRET}';`, "COMFY_KEY"],
  ["os.getenv default", `key = os.getenv("COMFY_API_KEY", "${SECRET}")`, "COMFY_API_KEY"],
  ["os.environ.get default", `key = os.environ.get("COMFY_API_KEY", '${SECRET}')`, "COMFY_API_KEY"],
  ["ENV.fetch default", `key = ENV.fetch("COMFY_API_KEY", "${SECRET}")`, "COMFY_API_KEY"],
  ["curl -u", `curl -u deploy:${SECRET} https://api.comfydeploy.com/api/run`, "api.comfydeploy.com"],
  ["curl --user=", `curl --user=deploy:${SECRET} https://h.example`, "deploy:"],
  ["YAML password:", `  password: ${SECRET}`, "password:"],
  ["YAML secret:", `secret: ${SECRET} # prod`, "# prod"],
  ["YAML token:", `- token: ${SECRET}`, "token:"],
  ["INI password =", `db_password = ${SECRET}`, "db_password"],
];

describe("redactSecrets", () => {
  for (const [form, line, kept] of FORMS) {
    it(`masks ${form}, keeping the rest readable`, () => {
      const out = redactSecrets(line);
      expect(out).not.toContain(SECRET);
      expect(out).toContain(kept);
      expect(out).toContain("***");
      // Redacting again changes nothing: outputs may pass through it twice.
      expect(redactSecrets(out)).toBe(out);
    });
  }

  it("keeps a URL default after an env read, losing only its credentials", () => {
    expect(redactSecrets(`const base = process.env.COMFY_URL ?? "https://api.comfydeploy.com";`)).toContain(
      '"https://api.comfydeploy.com"',
    );
    expect(redactSecrets(`base = os.getenv("COMFY_URL", "https://u:${SECRET}@api.comfydeploy.com")`)).not.toContain(
      SECRET,
    );
  });

  it("leaves placeholders and lines without secrets as they are", () => {
    for (const line of [
      "git@github.com:acme/app.git",
      "password: ${DB_PASSWORD}",
      "https://api.comfydeploy.com/api/run?run_id=abc",
      "token: $TOKEN",
      "curl -X POST https://api.comfydeploy.com/api/run",
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });

  it("masks every string of a value serialized whole", () => {
    const value = {
      findings: [{ excerpt: `token: ${SECRET}`, line: 3 }],
      command: `scan --repo-url https://x:${SECRET}@h.example`,
    };
    const out = redactDeep(value);
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out.findings[0]!.line).toBe(3);
  });

  it("excerpts are redacted", () => {
    expect(excerptOf(`  password: ${SECRET}  `)).toBe("password: ***");
  });
});

it("keeps the punctuation that ends a sentence after a query secret", () => {
  expect(redactSecrets(`V1 host in https://h.example/run?token=${SECRET}: use the V2 host.`)).toBe(
    "V1 host in https://h.example/run?token=***: use the V2 host.",
  );
});
