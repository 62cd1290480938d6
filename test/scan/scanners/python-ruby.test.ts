/**
 * Python and Ruby scanners: PyPI version semantics, manifest readers, the
 * Python tokenizer and value evaluation, SDK shapes and the Ruby gem.
 */
import { describe, expect, it } from "vitest";
import { comparePep440, judgePypiSpec, judgePypiVersion, validPep440 } from "../../../src/knowledge/pypi-versions.js";
import type { FileScanInput, RepoFacts } from "../../../src/scan/scanner.js";
import { scanPythonCode } from "../../../src/scan/scanners/python/code.js";
import { scanPythonManifest } from "../../../src/scan/scanners/python/dependencies.js";
import { PyModule } from "../../../src/lang/python/module.js";
import { projectPinFor } from "../../../src/scan/scanners/python/project-pin.js";
import { parseRequirement, splitRequirementList } from "../../../src/scan/scanners/python/requirement.js";
import { readRequirementsFile } from "../../../src/scan/scanners/python/requirements-file.js";
import { isRequirementsFileName } from "../../../src/lang/python/manifest-names.js";
import { readPipfile, readPyproject, readTomlLock } from "../../../src/scan/scanners/python/toml-manifests.js";
import { readSetupCfg, readSetupPy } from "../../../src/scan/scanners/python/setup-files.js";
import { readPipfileLock } from "../../../src/scan/scanners/python/pipfile-lock.js";
import { isString, tokenizePython } from "../../../src/lang/python/tokens.js";
import { PyValues } from "../../../src/lang/python/values.js";
import { rubyFileRole, scanRuby } from "../../../src/scan/scanners/ruby/sdk.js";
import { fileKind } from "../../../src/platform/file-types.js";
import { DEFAULT_HOSTS, HOLE } from "../../../src/core/urls.js";
import { factsOf } from "../../../src/core/facts.js";

function repoOf(files: Record<string, string>): RepoFacts {
  return { files: Object.keys(files).sort(), root: "/repo", sdkImportingPackages: new Set(), read: (f) => files[f] };
}

function input(file: string, files: Record<string, string>, repo = repoOf(files)): FileScanInput {
  const text = files[file]!;
  return { file, text, bytes: Buffer.from(text), kind: fileKind(file), hosts: DEFAULT_HOSTS, repo };
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

describe("PyPI version semantics", () => {
  it.each([
    ["==0.4.1", "v1"],
    [">=0.3,<0.5", "v1"],
    [">= 0.3, < 0.5", "v1"],
    ["~=0.4.1", "v1"],
    ["<0.6", "v1"],
    ["<0.6.0", "v1"],
    ["==0.4.*", "v1"],
    ["^0.4.1", "v1"],
    ["^0.4", "v1"],
    ["^0.0", "v1"],
    ["~0.4", "v1"],
    ["0.4.1", "v1"],
    ["^0.4 || ~0.3", "v1"],
    [">=0.7.0", "v2"],
    ["==0.6.3", "v2"],
    ["==0.6.*", "v2"],
    ["^0.6", "v2"],
    [">0.6.0,!=0.6.2", "v2"],
    ["~=0.6.1", "v2"],
    ["~=0.4", "review"],
    ["<=0.6.0", "review"],
    [">=0.4", "review"],
    [">0.5.9", "review"],
    ["^0", "review"],
    ["!=0.4.1", "review"],
    ["^0.4 || ^0.7", "review"],
    ["", "review"],
    ["*", "review"],
    [">=0.7,<0.5", "review"],
    ["==${VERSION}", "review"],
  ])("%s is %s", (spec, verdict) => {
    expect(judgePypiSpec(spec).verdict).toBe(verdict);
  });

  it("says why a spec is for review", () => {
    expect(judgePypiSpec("").reason).toMatch(/unpinned/);
    expect(judgePypiSpec(">=0.4").reason).toMatch(/below 0\.6\.0 \(V1\) and from 0\.6\.0 on \(V2\)/);
    expect(judgePypiSpec(">=0.7,<0.5").reason).toMatch(/allows no version/);
  });

  it("judges exact lock versions, pre-releases of 0.6.0 included", () => {
    expect(judgePypiVersion("0.4.1").verdict).toBe("v1");
    expect(judgePypiVersion("0.6.0rc1").verdict).toBe("v1");
    expect(judgePypiVersion("0.6.0").verdict).toBe("v2");
    expect(judgePypiVersion("0.7.0").verdict).toBe("v2");
    expect(judgePypiVersion("latest").verdict).toBe("review");
  });

  it("orders versions as PEP 440 does", () => {
    const order = ["1.0.dev0", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "1.1", "1!0.1"];
    for (let i = 1; i < order.length; i++) expect(comparePep440(order[i - 1]!, order[i]!)).toBeLessThan(0);
    expect(comparePep440("0.6", "0.6.0")).toBe(0);
    expect(validPep440(" v1.0-RC.2 ")).toBeDefined();
    expect(validPep440("latest")).toBeUndefined();
  });

  it.each([
    ["1!0.1", "v2"],
    ["0.4.1+local.7", "v1"],
    ["0.6.0.dev3", "v1"],
    ["0.6.0.post1", "v2"],
    ["V0.7", "v2"],
  ])("locked %s is %s (epochs, local labels, dev and post releases)", (version, verdict) => {
    expect(judgePypiVersion(version).verdict).toBe(verdict);
  });
});

describe("requirement strings and requirements files", () => {
  it("parses extras, parentheses, markers and direct references", () => {
    expect(parseRequirement('comfydeploy[a,b] (>=0.4,<0.5) ; python_version >= "3.9"')).toMatchObject({
      name: "comfydeploy",
      extras: "a,b",
      spec: ">=0.4,<0.5",
      marker: 'python_version >= "3.9"',
    });
    expect(parseRequirement("comfydeploy @ git+https://example.com/x.git@v1 ; os_name == 'nt'")).toMatchObject({
      url: "git+https://example.com/x.git@v1",
      marker: "os_name == 'nt'",
    });
    expect(parseRequirement("comfydeploy is great")).toBeUndefined();
  });

  it("keeps environment markers with their requirement in ;-separated lists", () => {
    const parts = splitRequirementList("comfydeploy==0.4.1; python_version < '3.12'; requests");
    expect(parts.map((p) => p.text.trim())).toEqual(["comfydeploy==0.4.1; python_version < '3.12'", "requests"]);
  });

  it("recognises requirement and constraint file names", () => {
    expect(isRequirementsFileName("requirements.txt")).toBe("requirements");
    expect(isRequirementsFileName("svc/dev-requirements.in")).toBe("requirements");
    expect(isRequirementsFileName("requirements/base.txt")).toBe("requirements");
    expect(isRequirementsFileName("constraints-prod.txt")).toBe("constraints");
    expect(isRequirementsFileName("notes.txt")).toBeUndefined();
  });

  it("joins continuations, strips hashes and comments, and lists includes", () => {
    const text = [
      "# comfydeploy==0.1.0",
      "comfydeploy==0.4.1 \\",
      "    --hash=sha256:abc  # via -r requirements.in",
      "-r ../common/base.txt",
      "-cconstraints.txt",
      "--requirement=extra.txt",
    ].join("\n");
    const result = readRequirementsFile("svc/requirements.txt", text, "requirements");
    expect(result.declarations).toHaveLength(1);
    expect(result.declarations[0]).toMatchObject({ spec: "==0.4.1", kind: "specifier" });
    expect(lineOf(text, result.declarations[0]!.start)).toBe(2);
    expect(result.includes).toEqual([
      { kind: "requirements", file: "common/base.txt" },
      { kind: "constraints", file: "svc/constraints.txt" },
      { kind: "requirements", file: "svc/extra.txt" },
    ]);
  });

  it("reads versions from wheel and sdist names and egg fragments", () => {
    const text =
      "https://x.example/comfydeploy-0.4.1-py3-none-any.whl\n-e git+https://x.example/repo.git#egg=comfydeploy\n./comfydeploy_tools-0.1.0.tar.gz\n";
    const result = readRequirementsFile("requirements.txt", text, "requirements");
    expect(result.declarations.map((d) => [d.kind, d.spec])).toEqual([
      ["specifier", "==0.4.1"],
      ["reference", ""],
    ]);
  });
});

describe("TOML, JSON and setuptools manifests", () => {
  it("places PEP 621 and Poetry declarations on their own lines, in order", () => {
    const text = [
      "[project]",
      'dependencies = ["comfydeploy>=0.7", "requests"]',
      "[project.optional-dependencies]",
      'old = ["comfydeploy==0.4.1"]',
      "[tool.poetry.dependencies]",
      '"comfydeploy" = { version = "^0.4.1", extras = ["x"] }',
    ].join("\n");
    const { declarations } = readPyproject(text);
    expect(declarations.map((d) => [lineOf(text, d.start), d.spec, d.section])).toEqual([
      [2, ">=0.7", "project.dependencies"],
      [4, "==0.4.1", "project.optional-dependencies.old"],
      [6, "^0.4.1", "tool.poetry.dependencies"],
    ]);
  });

  it("reports parser errors with their line", () => {
    expect(readPyproject('[project]\ndependencies = ["comfydeploy"\n').error?.line).toBeGreaterThanOrEqual(2);
    expect(readPipfileLock('{"default": {').error?.message).toMatch(/line 1/);
    expect(readTomlLock('[[package]]\nname = "comfydeploy"\nversion = 1.2.3\n', "poetry-lock").error).toBeDefined();
  });

  it("treats Pipfile git entries as references and skips the source table", () => {
    const { declarations } = readPipfile(
      '[[source]]\nname = "comfydeploy"\n[packages]\ncomfydeploy = {git = "https://x.example/r.git", ref = "v0.4.1"}\n',
    );
    expect(declarations).toHaveLength(1);
    expect(declarations[0]).toMatchObject({
      kind: "reference",
      reference: "https://x.example/r.git@v0.4.1",
      section: "packages",
    });
  });

  it("skips the project's own entry in uv.lock", () => {
    const { declarations } = readTomlLock(
      '[[package]]\nname = "comfydeploy"\nversion = "0.4.1"\nsource = { editable = "." }\n',
      "uv-lock",
    );
    expect(declarations).toEqual([]);
  });

  it("reads setup.cfg continuation lines and setup.py lists held in names", () => {
    const cfg =
      "[options]\ninstall_requires =\n    requests\n    comfydeploy<0.5\n[options.extras_require]\nx = comfydeploy==0.4.1\n";
    expect(readSetupCfg(cfg).declarations.map((d) => [lineOf(cfg, d.start), d.section])).toEqual([
      [4, "options.install_requires"],
      [6, "options.extras_require.x"],
    ]);
    const py = 'DEPS = ["comfydeploy==0.4.1"]\nsetup(name="comfydeploy", install_requires=DEPS)\n';
    const { declarations } = readSetupPy(py);
    expect(declarations.map((d) => [lineOf(py, d.start), d.spec])).toEqual([[1, "==0.4.1"]]);
  });
});

describe("the dependency scanner", () => {
  it("marks unpinned and mixed specs as review warnings and lockfiles as manual", () => {
    const files = {
      "requirements.txt": "comfydeploy\n",
      "poetry.lock": '[[package]]\nname = "comfydeploy"\nversion = "0.4.1"\n',
    };
    const [review] = scanPythonManifest(input("requirements.txt", files));
    expect(review).toMatchObject({ ruleId: "v1-sdk-dependency", severity: "warning", fix: "review", line: 1 });
    expect(review!.message).toMatch(/for review/);
    const [locked] = scanPythonManifest(input("poetry.lock", files));
    expect(locked).toMatchObject({ severity: "error", fix: "manual", line: 2 });
    expect(locked!.facts).toMatchObject({ kind: "pypi-dependency", spec: "0.4.1", verdict: "v1", lockfile: true });
    expect(locked!.message).toContain("comfydeploy>=0.7.0");
  });

  it("reads a file pulled in by -r under any name, and ignores other text files", () => {
    const files = {
      "requirements.txt": "-r deps/common.txt\n",
      "deps/common.txt": "comfydeploy==0.4.1\n",
      "notes.txt": "comfydeploy==0.4.1\n",
    };
    const repo = repoOf(files);
    expect(scanPythonManifest(input("deps/common.txt", files, repo))).toHaveLength(1);
    expect(scanPythonManifest(input("notes.txt", files, repo))).toEqual([]);
  });

  it("turns a parser error into one unreadable-file finding", () => {
    const files = { "Pipfile.lock": '{\n  "default": {\n    "comfydeploy": {"version": "==0.4.1"},\n  }\n' };
    const findings = scanPythonManifest(input("Pipfile.lock", files));
    expect(findings.map((f) => f.ruleId)).toEqual(["unreadable-file"]);
  });
});

describe("Python tokens and values", () => {
  it("tokenizes f-strings with nested quotes, raw strings and comments", () => {
    const text = `x = f"{d["k"]}/run"  # not "a string"\ny = r"a\\"b"\nz = '''multi\nline'''\n`;
    const { tokens, comments } = tokenizePython(text);
    const strings = tokens.filter(isString).map((t) => t.value);
    expect(strings).toEqual([`f"{d["k"]}/run"`, `r"a\\"b"`, `'''multi\nline'''`]);
    expect(comments.map((c) => c.text)).toEqual([`# not "a string"`]);
  });

  function stringValueOf(source: string, name: string): string {
    const module = new PyModule(source);
    const assignment = module.assignments.get(name)!.at(-1)!;
    return new PyValues(module).stringOf(assignment.value);
  }

  it("evaluates constants, f-strings, concatenation and formatting", () => {
    const head = 'import os\nBASE = os.getenv("API", "https://h.example/api")\n';
    expect(stringValueOf(`${head}U = f"{BASE}/run?run_id={rid}"\n`, "U")).toBe(
      `https://h.example/api/run?run_id=${HOLE}`,
    );
    expect(stringValueOf(`${head}U = BASE.rstrip("/") + "/run"\n`, "U")).toBe("https://h.example/api/run");
    expect(stringValueOf(`${head}U = "{}/run".format(BASE)\n`, "U")).toBe("https://h.example/api/run");
    expect(stringValueOf(`${head}U = "%s/run" % BASE\n`, "U")).toBe("https://h.example/api/run");
    expect(stringValueOf(`${head}U = "/".join([BASE, "run"])\n`, "U")).toBe("https://h.example/api/run");
    expect(stringValueOf(`${head}U = urljoin(BASE + "/", "run")\n`, "U")).toBe("https://h.example/api/run");
    expect(stringValueOf(`X = os.environ.get("X") or "https://h.example/api"\n`, "X")).toBe("https://h.example/api");
  });

  it("resolves a name to the assignment in force in the function that reads it", () => {
    const source =
      'URL = "https://a.example"\ndef f():\n    URL = "https://b.example"\n    u = URL + "/x"\ndef g():\n    v = URL + "/y"\n';
    expect(stringValueOf(source, "u")).toBe("https://b.example/x");
    expect(stringValueOf(source, "v")).toBe("https://a.example/y");
  });
});

describe("the Python code scanner", () => {
  const app = [
    '"""Calls https://www.comfydeploy.com/api/run."""',
    "import requests",
    "from comfydeploy import ComfyDeploy",
    "",
    'BASE = "https://www.comfydeploy.com/api"  # was https://www.comfydeploy.com/api',
    "cd = ComfyDeploy(bearer=KEY)",
    "res = cd.run.get(run_id=rid)",
    'requests.post(f"{BASE}/run", json=body)',
  ].join("\n");

  it("reports hosts as errors in code and warnings in comments and docstrings", () => {
    const findings = scanPythonCode(input("app.py", { "app.py": app }));
    const hosts = findings.filter((f) => f.ruleId === "legacy-base-url").map((f) => [f.line, f.severity]);
    expect(hosts).toEqual([
      [1, "warning"],
      [5, "error"],
      [5, "warning"],
    ]);
    expect(findings.find((f) => f.ruleId === "legacy-create-run")).toMatchObject({
      line: 8,
      fix: "auto",
      facts: { kind: "endpoint", endpoint: "create-run", methodSeen: true },
    });
  });

  it("leaves run.get alone under a V2 pin and reports it under a V1 pin", () => {
    const v2 = scanPythonCode(input("app.py", { "app.py": app, "requirements.txt": "comfydeploy==0.6.3\n" }));
    expect(v2.filter((f) => f.ruleId.startsWith("v1-sdk"))).toEqual([]);
    const v1 = scanPythonCode(input("app.py", { "app.py": app, "requirements.txt": "comfydeploy==0.4.1\n" }));
    expect(v1.filter((f) => f.ruleId.startsWith("v1-sdk")).map((f) => [f.line, f.ruleId])).toEqual([
      [3, "v1-sdk-import"],
      [7, "v1-sdk-call"],
    ]);
    expect(v1.find((f) => f.ruleId === "v1-sdk-call")!.facts).toMatchObject({
      kind: "python-sdk",
      v1: "run.get",
      pin: "requirements.txt:1",
    });
  });

  it("always reports bearer_auth, which makes the file's calls V1 too", () => {
    const code =
      "from comfydeploy import ComfyDeploy\ns = ComfyDeploy(bearer_auth=k)\nr = s.run.create(request={})\nprint(r.object.run_id)\n";
    const findings = scanPythonCode(
      input("a.py", { "a.py": code, "pyproject.toml": '[project]\ndependencies = ["comfydeploy>=0.7"]\n' }),
    );
    expect(findings.map((f) => [f.line, f.ruleId])).toEqual([
      [2, "v1-sdk-client"],
      [3, "v1-sdk-call"],
      [4, "v1-sdk-call"],
    ]);
  });

  const awaited = [
    "from .sdk import client",
    "",
    "async def queue(d):",
    '    res = await client().run.create_async(request={"deployment_id": d})',
    "    if res.object is None:",
    "        return None",
    "    return res.object.run_id",
    "",
    "async def poll(rid):",
    "    return (await client().run.get_async(run_id=rid)).object",
    "",
    "def inputs(d):",
    "    return client().comfyui.get_deployment_id_inputs(id=d).response_bodies",
    "",
    "def other(d):",
    "    return client().comfyui.list_everything(d)",
    "",
    "def urls(run):",
    "    return [i.url for o in run.outputs for i in o.data.images]",
  ].join("\n");

  it("reports awaitable run calls with their V2 twins, and every .object read of their results", () => {
    const findings = scanPythonCode(
      input("jobs.py", { "jobs.py": awaited, "requirements.txt": "comfydeploy==0.4.1\n" }),
    );
    const calls = findings.filter((f) => f.ruleId === "v1-sdk-call");
    expect(calls.map((f) => [f.line, factsOf(f, "python-sdk")?.v1])).toEqual([
      [4, "run.create_async"],
      [10, "run.get_async"],
      [13, "comfyui.get_deployment_id_inputs"],
      [5, "object"],
      [7, "object"],
      [10, "object"],
      [19, "outputs[].data.images"],
    ]);
    expect(factsOf(calls[0]!, "python-sdk")).toMatchObject({
      v2: "run.deployment.queue_async",
      v2Result: "create_run_response",
    });
    expect(factsOf(calls[4]!, "python-sdk")).toMatchObject({ call: "run.create_async" });
    expect(calls[0]!.message).toMatch(
      /^run\.create_async\(\) on the V1 Python SDK \(comfydeploy ==0\.4\.1 in requirements\.txt:1 is V1\): it becomes run\.deployment\.queue_async/,
    );
    // A V1 method name counts on any client; another method of the namespace only on a client built in the file.
    expect(calls.find((f) => f.line === 13)).toMatchObject({ fix: "manual" });
    expect(calls.find((f) => f.line === 13)!.message).toMatch(
      /exists only in the V1 Python SDK .*: there is no client.comfyui namespace in V2 .*input_types/,
    );
    expect(calls.some((f) => f.line === 16)).toBe(false);
  });

  it("in a project pinned to V2, reports only the shapes V2 lacks, and says so", () => {
    const findings = scanPythonCode(
      input("jobs.py", { "jobs.py": awaited, "requirements.txt": "comfydeploy>=0.7.0\n" }),
    );
    expect(findings.map((f) => [f.line, factsOf(f, "python-sdk")?.v1])).toEqual([
      [4, "run.create_async"],
      [13, "comfyui.get_deployment_id_inputs"],
      [5, "object"],
      [7, "object"],
      [10, "object"],
      [19, "outputs[].data.images"],
    ]);
    expect(findings[0]!.message).toMatch(
      /^run\.create_async\(\) exists only in the V1 Python SDK and fails on the V2 SDK this project pins \(comfydeploy >=0\.7\.0 in requirements\.txt:1\): call run\.deployment\.queue_async/,
    );
    expect(findings.find((f) => f.line === 10)!.message).toMatch(
      /V2 responses .* have no \.object; read res\.workflow_run_model/,
    );
  });

  it("leaves look-alike calls alone in a project that does not use the SDK", () => {
    const findings = scanPythonCode(input("jobs.py", { "jobs.py": awaited, "requirements.txt": "jobrunner==2.0\n" }));
    expect(findings).toEqual([]);
  });

  it("takes the nearest declaring directory as the project pin", () => {
    const repo = repoOf({
      "requirements.txt": "comfydeploy==0.4.1\n",
      "svc/pyproject.toml": '[tool.poetry.dependencies]\ncomfydeploy = "^0.7"\n',
      "svc/app/main.py": "",
      "tools/requirements.txt": "requests\n",
      "tools/run.py": "",
    });
    expect(projectPinFor(repo, "svc/app/main.py")).toMatchObject({ verdict: "v2", source: "svc/pyproject.toml:2" });
    expect(projectPinFor(repo, "tools/run.py")).toMatchObject({ verdict: "v1", source: "requirements.txt:1" });
  });
});

describe("the Ruby scanner", () => {
  it("knows Ruby file roles", () => {
    expect(rubyFileRole("Gemfile")).toBe("gemfile");
    expect(rubyFileRole("gems.locked")).toBe("lockfile");
    expect(rubyFileRole("x.gemspec")).toBe("gemspec");
    expect(rubyFileRole("lib/a.rb")).toBe("code");
    expect(rubyFileRole("Gemfile.rb.txt")).toBeUndefined();
  });

  it("reports locked specs and top-level dependencies, not dependencies of other gems", () => {
    const lock =
      "GEM\n  specs:\n    comfydeploy (0.0.10)\n    other (1.0)\n      comfydeploy (>= 0)\n\nDEPENDENCIES\n  comfydeploy!\n";
    const findings = scanRuby(input("Gemfile.lock", { "Gemfile.lock": lock }));
    expect(findings.map((f) => [f.line, factsOf(f, "gem-dependency")?.where, f.fix])).toEqual([
      [3, "specs", "manual"],
      [8, "DEPENDENCIES", "manual"],
    ]);
  });

  it("reports require and the client constant in code, not in comments or other namespaces", () => {
    const code =
      "require 'comfydeploy/models'\n# OpenApiSDK::ComfyDeploy.new\nc = ::OpenApiSDK::ComfyDeploy.new\nMy::OpenApiSDK::ComfyDeploy.new\n";
    const findings = scanRuby(input("a.rb", { "a.rb": code }));
    expect(findings.map((f) => [f.line, f.ruleId])).toEqual([
      [1, "v1-sdk-import"],
      [3, "v1-sdk-client"],
    ]);
    expect(findings[1]!.message).toContain("POST https://api.comfydeploy.com/api/run/deployment/queue");
  });
});
