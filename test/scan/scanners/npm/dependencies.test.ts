/** The npm SDK version rules and the manifest/lockfile scanners' findings in detail. */
import { describe, expect, it } from "vitest";
import type { Finding } from "../../../../src/core/finding.js";
import { JS_SDK } from "../../../../src/knowledge/migration.js";
import {
  judgeNpmSpec,
  judgeNpmVersion,
  sdkSpecOf,
  splitDescriptor,
  splitPackagePath,
} from "../../../../src/knowledge/npm-versions.js";
import { fileKind } from "../../../../src/platform/file-types.js";
import type { FileScanInput, FileScanner, RepoFacts } from "../../../../src/scan/scanner.js";
import { FILE_SCANNERS } from "../../../../src/scan/scanners/index.js";
import { scanBunLock } from "../../../../src/scan/scanners/npm/bun-lock.js";
import { bunLockbScanner, scanBunLockb } from "../../../../src/scan/scanners/npm/bun-lockb.js";
import {
  npmManifestScanner,
  pnpmOverrideTarget,
  resolutionTarget,
  scanPackageJson,
} from "../../../../src/scan/scanners/npm/manifest.js";
import { scanPackageLock } from "../../../../src/scan/scanners/npm/package-lock.js";
import { parsePackageKey, scanPnpmLock } from "../../../../src/scan/scanners/npm/pnpm-lock.js";
import { scanPnpmWorkspace } from "../../../../src/scan/scanners/npm/pnpm-workspace.js";
import { NPM_SCANNERS } from "../../../../src/scan/scanners/npm/index.js";
import { scanYarnLock } from "../../../../src/scan/scanners/npm/yarn-lock.js";
import { DEFAULT_HOSTS } from "../../../../src/core/urls.js";
import { factsOf } from "../../../../src/core/facts.js";

interface RepoOptions {
  importing?: string[];
  files?: Record<string, string>;
}

function input(file: string, content: string | Buffer, options: RepoOptions = {}): FileScanInput {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  const files = { ...(options.files ?? {}), [file]: typeof content === "string" ? content : "" };
  const repo: RepoFacts = {
    sdkImportingPackages: new Set(options.importing ?? []),
    files: Object.keys(files),
    root: "/repo",
    read: (path) => files[path],
  };
  return {
    file,
    text: typeof content === "string" ? content : bytes.toString("latin1"),
    bytes,
    kind: fileKind(file),
    hosts: DEFAULT_HOSTS,
    repo,
  };
}

function manifest(sections: Record<string, unknown>): string {
  return `${JSON.stringify({ name: "app", version: "1.0.0", ...sections }, null, 2)}\n`;
}

function only(findings: Finding[]): Finding {
  expect(findings).toHaveLength(1);
  return findings[0]!;
}

const npmFacts = (finding: Finding) => factsOf(finding, "npm-dependency");

describe("judgeNpmSpec", () => {
  it.each([
    "^0.0.16",
    "0.0.x",
    "~0.0.17",
    "0.0.19",
    "0.0.13",
    ">=0.0.1",
    "<3",
    "1.x",
    "0.0.19 || 2.0.0-beta.69",
    "npm:comfydeploy@^0.0.19",
  ])("%s selects V1", (spec) => {
    expect(judgeNpmSpec(spec).verdict).toBe("v1");
  });

  it.each([
    "2.0.0-beta.69",
    "^2.0.0-beta.69",
    ">=2.0.0-beta.29",
    "2.0.0-beta.59",
    "npm:comfydeploy@2.0.0-beta.69",
    "2.x",
  ])("%s selects V2", (spec) => {
    expect(judgeNpmSpec(spec).verdict).toBe("v2");
  });

  it.each(["latest", "*", "x", "", "  ", "npm:comfydeploy"])(
    "%j resolves through the latest tag, which is V1: review",
    (spec) => {
      const judgement = judgeNpmSpec(spec);
      expect(judgement.verdict).toBe("review");
      expect(judgement.reason).toContain(JS_SDK.latestTagIsV1);
    },
  );

  it.each([
    "github:comfy-deploy/comfydeploy.js",
    "comfy-deploy/comfydeploy.js#main",
    "git+https://github.com/comfy-deploy/comfydeploy.js.git",
    "file:../vendor/comfydeploy",
    "link:../comfydeploy",
    "https://example.com/comfydeploy-0.0.19.tgz",
    "next",
    "npm:other-sdk@1.0.0",
  ])("%s cannot be told: review", (spec) => {
    expect(judgeNpmSpec(spec).verdict).toBe("review");
  });

  it("says why a range that also allows V2 is still V1", () => {
    expect(judgeNpmSpec(">=0.0.1").reason).toMatch(/also allows versions below 2\.0\.0/);
    expect(judgeNpmSpec("^0.0.19").reason).not.toMatch(/also allows/);
  });

  it("reads yarn patch and berry npm: wrappers", () => {
    expect(judgeNpmSpec("patch:comfydeploy@npm%3A0.0.17#~/.yarn/patches/x.patch").verdict).toBe("v1");
    expect(judgeNpmSpec("patch:comfydeploy@npm%3A2.0.0-beta.69#~/.yarn/patches/x.patch").verdict).toBe("v2");
    expect(judgeNpmSpec("npm:^0.0.19").verdict).toBe("v1");
  });
});

describe("judgeNpmVersion", () => {
  it("treats every version below 2.0.0-0 as V1, prereleases of 2.0.0 as V2", () => {
    expect(judgeNpmVersion("0.0.19").verdict).toBe("v1");
    expect(judgeNpmVersion("1.9.9").verdict).toBe("v1");
    expect(judgeNpmVersion("2.0.0-beta.69").verdict).toBe("v2");
    expect(judgeNpmVersion("2.0.0-0").verdict).toBe("v2");
    expect(judgeNpmVersion("2.2.2").verdict).toBe("v2");
  });

  it("leaves non-registry versions for review", () => {
    expect(judgeNpmVersion("git+ssh://git@github.com/comfy-deploy/comfydeploy.js.git#abc").verdict).toBe("review");
  });
});

describe("package names", () => {
  it("recognises the SDK only under its own name or an npm: alias of it", () => {
    expect(sdkSpecOf("comfydeploy", "^0.0.19")).toBe("^0.0.19");
    expect(sdkSpecOf("cd", "npm:comfydeploy@^0.0.19")).toBe("^0.0.19");
    expect(sdkSpecOf("comfydeploy", "npm:^0.0.19")).toBe("^0.0.19");
    expect(sdkSpecOf("comfydeploy", "npm:other-sdk@1.0.0")).toBeUndefined();
    expect(sdkSpecOf("comfydeploy-utils", "^0.0.19")).toBeUndefined();
    expect(sdkSpecOf("@acme/comfydeploy", "0.0.19")).toBeUndefined();
    expect(sdkSpecOf("comfydeploy-migrate", "^0.1.0")).toBeUndefined();
  });

  it("splits descriptors, keeping scopes", () => {
    expect(splitDescriptor("comfydeploy@^0.0.19")).toEqual({ name: "comfydeploy", range: "^0.0.19" });
    expect(splitDescriptor("@acme/comfydeploy@1.0.0")).toEqual({ name: "@acme/comfydeploy", range: "1.0.0" });
    expect(splitDescriptor("cd@npm:comfydeploy@0.0.16")).toEqual({ name: "cd", range: "npm:comfydeploy@0.0.16" });
    expect(splitDescriptor("^0.0.19")).toEqual({ name: "", range: "^0.0.19" });
    expect(splitPackagePath("widget-kit/@acme/ui/**/comfydeploy")).toEqual([
      "widget-kit",
      "@acme/ui",
      "**",
      "comfydeploy",
    ]);
  });

  it("finds the target and owner of override keys", () => {
    expect(resolutionTarget("**/comfydeploy")).toEqual({ name: "comfydeploy" });
    expect(resolutionTarget("widget-kit/comfydeploy")).toEqual({ name: "comfydeploy", parent: "widget-kit" });
    expect(resolutionTarget("@acme/comfydeploy")).toEqual({ name: "@acme/comfydeploy" });
    expect(resolutionTarget("comfydeploy@npm:^0.0.19")).toEqual({ name: "comfydeploy" });
    expect(pnpmOverrideTarget("comfydeploy@<1")).toEqual({ name: "comfydeploy" });
    expect(pnpmOverrideTarget("widget-kit@1>comfydeploy")).toEqual({ name: "comfydeploy", parent: "widget-kit" });
  });

  it("reads pnpm package keys of every lockfile version", () => {
    expect(parsePackageKey("/comfydeploy/0.0.13")).toEqual({ name: "comfydeploy", version: "0.0.13" });
    expect(parsePackageKey("/comfydeploy/0.0.13_zod@3.23.8")).toEqual({ name: "comfydeploy", version: "0.0.13" });
    expect(parsePackageKey("/comfydeploy@0.0.19")).toEqual({ name: "comfydeploy", version: "0.0.19" });
    expect(parsePackageKey("comfydeploy@2.0.0-beta.69(zod@3.23.8)")).toEqual({
      name: "comfydeploy",
      version: "2.0.0-beta.69",
    });
    expect(parsePackageKey("/@acme/comfydeploy@0.0.19")).toEqual({ name: "@acme/comfydeploy", version: "0.0.19" });
  });
});

describe("package.json", () => {
  it("reports a V1 range as an error to fix automatically, on the key, with the facts fixers need", () => {
    const text = manifest({ dependencies: { next: "^14.2.15", comfydeploy: "^0.0.19" } });
    const finding = only(scanPackageJson(input("package.json", text, { importing: ["."] })));
    expect(finding).toMatchObject({ ruleId: "v1-sdk-dependency", severity: "error", fix: "auto", line: 6, column: 5 });
    expect(finding.facts).toMatchObject({
      kind: "npm-dependency",
      spec: "^0.0.19",
      field: "dependencies",
      manager: "npm",
      verdict: "v1",
      jsonPath: ["dependencies", "comfydeploy"],
    });
    expect(finding.excerpt).toBe('"comfydeploy": "^0.0.19"');
  });

  it("names the exact V2 pin, why it must be exact, and zod", () => {
    const finding = only(
      scanPackageJson(
        input("package.json", manifest({ dependencies: { comfydeploy: "^0.0.19" } }), { importing: ["."] }),
      ),
    );
    expect(finding.message).toContain(`${JS_SDK.packageName}@${JS_SDK.v2Pin}`);
    expect(finding.message).toContain("exactly");
    expect(finding.message).toContain(`latest tag is still V1, ${JS_SDK.latestTagIsV1}`);
    expect(finding.message).toContain("zod@^3");
    expect(finding.message).not.toMatch(/unused/);
  });

  it("reports a dependency no code of its package imports as unused, with the command that removes it, for a person", () => {
    const text = manifest({ devDependencies: { comfydeploy: "0.0.19" } });
    const unused = only(scanPackageJson(input("packages/tool/package.json", text, { importing: ["."] })));
    expect(unused.message).toContain(
      "no code in this package imports comfydeploy: remove it with `npm uninstall comfydeploy`",
    );
    expect(unused.fix).toBe("manual");
    expect(unused.message).toContain("if code will use it, pin comfydeploy@2.0.0-beta.69");
    expect(npmFacts(unused)?.unused).toBe(true);
    const used = only(scanPackageJson(input("packages/tool/package.json", text, { importing: ["packages/tool"] })));
    expect(used.message).not.toMatch(/no code in this package imports/);
  });

  it("does not call an alias unused: its code imports it under another name", () => {
    const finding = only(
      scanPackageJson(input("package.json", manifest({ dependencies: { cd: "npm:comfydeploy@0.0.19" } }))),
    );
    expect(finding.message).not.toMatch(/unused/);
    expect(finding.facts).toMatchObject({ kind: "npm-dependency", alias: "cd", spec: "npm:comfydeploy@0.0.19" });
  });

  it("reports latest and wildcards as warnings to review", () => {
    for (const spec of ["latest", "*", "x", ""]) {
      const finding = only(
        scanPackageJson(input("package.json", manifest({ dependencies: { comfydeploy: spec } }), { importing: ["."] })),
      );
      expect(finding).toMatchObject({ severity: "warning", fix: "review" });
      expect(npmFacts(finding)?.verdict).toBe("review");
      expect(finding.message).toContain("latest tag");
    }
  });

  it("reports nothing for V2, look-alike names, catalogs, workspaces and override references", () => {
    const text = manifest({
      dependencies: { comfydeploy: "2.0.0-beta.69", "comfydeploy-utils": "0.0.19", "@acme/comfydeploy": "0.0.19" },
      devDependencies: { "comfydeploy-migrate": "^0.1.0" },
      peerDependencies: { comfydeploy: "catalog:" },
      optionalDependencies: { comfydeploy: "workspace:*" },
      overrides: { comfydeploy: "$comfydeploy" },
    });
    expect(scanPackageJson(input("package.json", text))).toEqual([]);
  });

  it("fixes global overrides automatically but leaves overrides under another package for review", () => {
    const text = manifest({
      overrides: { "widget-kit": { comfydeploy: "0.0.17" } },
      resolutions: { "**/comfydeploy": "0.0.19" },
      pnpm: { overrides: { "widget-kit>comfydeploy": "0.0.16" } },
    });
    const findings = scanPackageJson(input("package.json", text));
    expect(findings.map((f) => [npmFacts(f)?.field, f.fix, f.severity])).toEqual([
      ["overrides.widget-kit", "review", "error"],
      ["resolutions", "auto", "error"],
      ["pnpm.overrides", "review", "error"],
    ]);
    expect(findings[0]!.message).toContain("widget-kit only");
    expect(npmFacts(findings[2]!)?.manager).toBe("pnpm");
  });

  it("takes the manager from packageManager, else from the nearest lockfile", () => {
    const text = manifest({ dependencies: { comfydeploy: "0.0.19" } });
    const managerOf = (file: string, options: RepoOptions): string | undefined =>
      npmFacts(only(scanPackageJson(input(file, text, options))))?.manager;
    expect(managerOf("packages/a/package.json", { files: { "yarn.lock": "" } })).toBe("yarn");
    expect(managerOf("packages/a/package.json", { files: { "pnpm-lock.yaml": "", "packages/a/bun.lockb": "" } })).toBe(
      "bun",
    );
    expect(managerOf("package.json", {})).toBe("npm");
    const declared = manifest({ packageManager: "pnpm@9.12.0", dependencies: { comfydeploy: "0.0.19" } });
    expect(
      npmFacts(only(scanPackageJson(input("package.json", declared, { files: { "yarn.lock": "" } }))))?.manager,
    ).toBe("pnpm");
  });

  it("turns a syntax error into one unreadable-file warning with the parser's message and line", () => {
    const finding = only(
      scanPackageJson(input("package.json", '{\n  "dependencies": {\n    "comfydeploy": "^0.0.19",\n  }\n}\n')),
    );
    expect(finding).toMatchObject({ ruleId: "unreadable-file", severity: "warning", line: 4 });
    expect(finding.message).toContain("PropertyNameExpected");
  });

  it("does not parse a manifest that never names the SDK", () => {
    expect(scanPackageJson(input("package.json", '{ "scripts": { "start": "node ./bin/run", } }'))).toEqual([]);
  });
});

describe("pnpm-workspace.yaml", () => {
  it("reports V1 catalog entries and overrides on their lines", () => {
    const text =
      "catalog:\n  comfydeploy: ^0.0.19\ncatalogs:\n  next:\n    comfydeploy: 2.0.0-beta.69\noverrides:\n  comfydeploy: latest\n";
    const findings = scanPnpmWorkspace(input("pnpm-workspace.yaml", text));
    expect(findings.map((f) => [f.line, f.column, f.severity, f.fix, npmFacts(f)?.field])).toEqual([
      [2, 3, "error", "auto", "catalog"],
      [7, 3, "warning", "review", "overrides"],
    ]);
  });
});

describe("lockfiles", () => {
  const npmLock = JSON.stringify(
    {
      name: "app",
      lockfileVersion: 3,
      packages: {
        "": { name: "app", dependencies: { comfydeploy: "^0.0.19" } },
        "node_modules/comfydeploy": { version: "0.0.19" },
        "packages/web": { dependencies: { comfydeploy: "2.0.0-beta.69" } },
        "packages/web/node_modules/comfydeploy": { version: "2.0.0-beta.69" },
      },
    },
    null,
    2,
  );

  it("reports the locked V1 copy for manual regeneration, naming the install command and the declaring manifest", () => {
    const finding = only(scanPackageLock(input("package-lock.json", npmLock)));
    expect(finding).toMatchObject({
      ruleId: "v1-sdk-dependency",
      severity: "error",
      fix: "manual",
      line: 11,
      column: 5,
    });
    expect(finding.message).toContain("`npm install`");
    expect(finding.message).toContain("do not edit the lockfile by hand");
    expect(finding.message).toContain('declared in package.json ("^0.0.19")');
    expect(finding.message).not.toContain("packages/web");
    expect(finding.facts).toMatchObject({
      kind: "npm-dependency",
      spec: "0.0.19",
      manager: "npm",
      field: "packages",
      lockKey: "node_modules/comfydeploy",
    });
  });

  it("names each manager's own install command", () => {
    const yarn = only(
      scanYarnLock(input("yarn.lock", '# yarn lockfile v1\n\ncomfydeploy@^0.0.19:\n  version "0.0.19"\n')),
    );
    expect(yarn).toMatchObject({ line: 3, fix: "manual" });
    expect(yarn.message).toContain("`yarn install`");
    const pnpm = only(
      scanPnpmLock(
        input(
          "pnpm-lock.yaml",
          "lockfileVersion: '9.0'\npackages:\n  comfydeploy@0.0.19:\n    resolution: {integrity: x}\n",
        ),
      ),
    );
    expect(pnpm).toMatchObject({ line: 3, column: 3 });
    expect(pnpm.message).toContain("`pnpm install`");
    const bun = only(
      scanBunLock(
        input(
          "bun.lock",
          '{\n  "packages": {\n    "comfydeploy": ["comfydeploy@0.0.19", "", {}, "sha512-x"],\n  },\n}\n',
        ),
      ),
    );
    expect(bun).toMatchObject({ line: 3, column: 5 });
    expect(bun.message).toContain("`bun install`");
  });

  it("falls back to the package.json beside a lockfile that does not record the root project", () => {
    const yarn = only(
      scanYarnLock(
        input("web/yarn.lock", '# yarn lockfile v1\n\ncomfydeploy@~0.0.16:\n  version "0.0.19"\n', {
          files: { "web/package.json": manifest({ dependencies: { comfydeploy: "~0.0.16" } }) },
        }),
      ),
    );
    expect(yarn.message).toContain('declared in web/package.json ("~0.0.16")');
  });

  it("reports one pnpm finding per locked version, on the packages entry rather than its snapshot", () => {
    const text = [
      "lockfileVersion: '9.0'",
      "importers:",
      "  .:",
      "    dependencies:",
      "      comfydeploy:",
      "        specifier: ^0.0.19",
      "        version: 0.0.19",
      "packages:",
      "  comfydeploy@0.0.19:",
      "    resolution: {integrity: x}",
      "snapshots:",
      "  comfydeploy@0.0.19: {}",
      "",
    ].join("\n");
    const finding = only(scanPnpmLock(input("pnpm-lock.yaml", text)));
    expect(finding.line).toBe(9);
    expect(finding.message).toContain('declared in package.json ("^0.0.19")');
  });

  it("falls back to the importer when the lockfile has no package entry", () => {
    const text =
      "lockfileVersion: '9.0'\nimporters:\n  apps/web:\n    dependencies:\n      comfydeploy:\n        specifier: 0.0.19\n        version: 0.0.19\n";
    const finding = only(scanPnpmLock(input("pnpm-lock.yaml", text)));
    expect(finding.line).toBe(5);
    expect(finding.message).toContain("apps/web/package.json");
  });

  it("reports malformed lockfiles once, with the parser's line", () => {
    const npm = only(
      scanPackageLock(input("package-lock.json", '{\n  "packages": {\n    "node_modules/comfydeploy" 1\n  }\n}\n')),
    );
    expect(npm).toMatchObject({ ruleId: "unreadable-file", line: 3 });
    expect(only(scanPnpmLock(input("pnpm-lock.yaml", "packages:\n  comfydeploy@0.0.19: [\n")))).toMatchObject({
      ruleId: "unreadable-file",
    });
    const yarn = only(
      scanYarnLock(input("yarn.lock", '# yarn lockfile v1\n\ncomfydeploy@0.0.19:\n  version "0.0.19\n')),
    );
    expect(yarn).toMatchObject({ ruleId: "unreadable-file", line: 4 });
    expect(only(scanBunLock(input("bun.lock", '{ "packages": { "comfydeploy": [1 } }')))).toMatchObject({
      ruleId: "unreadable-file",
    });
  });
});

describe("bun.lockb", () => {
  const header = Buffer.concat([Buffer.from("#!/usr/bin/env bun\nbun-lockfile-format-v0\n"), Buffer.alloc(12)]);
  const lockb = (...parts: string[]): Buffer =>
    Buffer.concat([header, ...parts.map((p) => Buffer.from(p, "latin1")), Buffer.alloc(4)]);

  it("opts into binary files", () => {
    expect(bunLockbScanner.readsBinary).toBe(true);
  });

  it("finds the SDK by tarball name or by name followed by a version, once per version", () => {
    const findings = scanBunLockb(
      input(
        "bun.lockb",
        lockb(
          "comfydeploy\u0000\u0000\u00060.0.19\u0000",
          "/comfydeploy/-/comfydeploy-0.0.19.tgz\u0000",
          "/comfydeploy/-/comfydeploy-0.0.16.tgz",
        ),
      ),
    );
    expect(findings.map((f) => npmFacts(f)?.spec)).toEqual(["0.0.19", "0.0.16"]);
    expect(findings[0]).toMatchObject({ severity: "error", fix: "manual", line: 3 });
    expect(findings[0]!.message).toContain("bun install --save-text-lockfile");
    expect(findings[0]!.excerpt).toBe("comfydeploy@0.0.19 (binary lockfile)");
  });

  it("ignores V2 and packages whose names only contain the SDK's", () => {
    const bytes = lockb(
      "comfydeploy\u0000\u00002.0.0-beta.69\u0000",
      "comfydeploy-utils\u0000\u00000.0.19\u0000",
      "/@acme/comfydeploy/-/comfydeploy-0.0.19.tgz\u0000",
      "@acme/comfydeploy\u0000\u00000.0.19\u0000",
    );
    expect(scanBunLockb(input("bun.lockb", bytes))).toEqual([]);
  });

  it("reports a name without a readable version as a warning for a person: a lockfile is regenerated, never edited", () => {
    const finding = only(scanBunLockb(input("bun.lockb", lockb("zodcomfydeploywidget-kit"))));
    expect(finding).toMatchObject({ severity: "warning", fix: "manual" });
  });
});

describe("registration", () => {
  it("registers every npm scanner, each matching its own file names", () => {
    for (const scanner of NPM_SCANNERS) expect(FILE_SCANNERS).toContain(scanner);
    const matching = (file: string): string[] =>
      NPM_SCANNERS.filter((s: FileScanner) => s.matches(file)).map((s) => s.id);
    expect(matching("packages/a/package.json")).toEqual([npmManifestScanner.id]);
    expect(matching("package-lock.json")).toEqual(["npm-package-lock"]);
    expect(matching("sub/npm-shrinkwrap.json")).toEqual(["npm-package-lock"]);
    expect(matching("yarn.lock")).toEqual(["npm-yarn-lock"]);
    expect(matching("pnpm-lock.yaml")).toEqual(["npm-pnpm-lock"]);
    expect(matching("pnpm-workspace.yaml")).toEqual(["npm-pnpm-workspace"]);
    expect(matching("bun.lock")).toEqual(["npm-bun-lock"]);
    expect(matching("bun.lockb")).toEqual(["npm-bun-lockb"]);
    expect(matching("package.json.bak")).toEqual([]);
    expect(matching("src/package-lock.ts")).toEqual([]);
  });
});
