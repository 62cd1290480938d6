/**
 * The tarball `npm pack` makes: built while packing, complete without a build
 * step, free of the `prepare` script (npm warns about it on a tarball install),
 * and working when installed (`npm install <tgz>`) or run (`npx <tgz>`).
 *
 * The package is packed from a copy of its sources, so the build that packing
 * runs never rewrites the dist/ other tests are running at the same time.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-repo.js";

const SOURCES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "README.md",
  "LICENSE",
  "src",
  "transforms",
  "schema",
];
const OWN = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  license: string;
  scripts: Record<string, string>;
};

function npm(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
    env: {
      ...process.env,
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
      ...env,
    },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("npm pack", () => {
  let work: string;
  let pkg: string;
  let tarball: string;
  let packed: { status: number | null; stdout: string; stderr: string };

  beforeAll(() => {
    work = tempDir("cdm-pack-");
    pkg = join(work, "pkg");
    for (const entry of SOURCES) cpSync(join(REPO_ROOT, entry), join(pkg, entry), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
    packed = npm(["pack", "--pack-destination", work], pkg);
    tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz")) ?? "missing.tgz");
  }, 240_000);

  it("builds dist/ while packing and ships it, the schemas and the LICENSE, not the sources or tests", () => {
    expect(packed.status, packed.stderr).toBe(0);
    expect(tarball).toMatch(new RegExp(`comfydeploy-migrate-${OWN.version.replace(/\./g, "\\.")}\\.tgz$`));
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
    for (const file of [
      "package/dist/src/cli.js",
      "package/dist/transforms/index.js",
      "package/schema/scan-report.schema.json",
      "package/LICENSE",
      "package/README.md",
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /^package\/(src|test|fixtures|bench|node_modules)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("ships a package.json without prepare, and leaves the one it packed from as it was", () => {
    const manifest = JSON.parse(
      execFileSync("tar", ["xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
    ) as typeof OWN;
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(manifest.license).toBe("MIT");
    expect(OWN.scripts.prepare).toBe("npm run build"); // git installs (npx github:…) still build
    expect(readFileSync(join(pkg, "package.json"), "utf8")).toBe(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    const license = execFileSync("tar", ["xzOf", tarball, "package/LICENSE"], { encoding: "utf8" });
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} comfydeploy-migrate contributors\n/);
  });

  it("installs from the tarball without a warning, then scans and reports its versions", () => {
    const app = join(work, "app");
    cpSync(join(REPO_ROOT, "fixtures", "demo-app"), join(app, "demo"), { recursive: true });
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true })}\n`,
    );
    // --prefer-offline: the dependencies come from the npm cache when it has them.
    const install = npm(["install", "--prefer-offline", tarball], app);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/prepare|install-scripts/i);

    const bin = join(app, "node_modules", ".bin", "comfydeploy-migrate");
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(version.status, version.stderr).toBe(0);
    const installed = (name: string): string =>
      (JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")) as { version: string })
        .version;
    // The TypeScript the scanner uses is the one bundled with ts-morph; ask the installed ts-morph for it.
    const ts = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", 'import { ts } from "ts-morph"; process.stdout.write(ts.version);'],
      {
        cwd: join(app, "node_modules", "comfydeploy-migrate"),
        encoding: "utf8",
      },
    ).stdout;
    expect(ts).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.stdout).toBe(
      `comfydeploy-migrate ${OWN.version}\njscodeshift ${installed("jscodeshift")}\ntypescript ${ts}\nts-morph ${installed("ts-morph")}\nnode ${process.versions.node}\n`,
    );
    // After a command name too, as linters take it, instead of running the command.
    expect(spawnSync(bin, ["scan", "--version"], { encoding: "utf8" }).stdout).toBe(version.stdout);

    const scan = spawnSync(bin, ["scan", "demo", "--format", "json"], { cwd: app, encoding: "utf8" });
    expect(scan.status, scan.stderr).toBe(1);
    expect((JSON.parse(scan.stdout) as { summary: { total: number } }).summary.total).toBeGreaterThan(10);
  }, 240_000);

  it("runs as `npx ./comfydeploy-migrate-<version>.tgz scan .`", () => {
    const app = join(work, "npx-app");
    cpSync(join(REPO_ROOT, "fixtures", "demo-app"), app, { recursive: true });
    const name = basename(tarball);
    cpSync(tarball, join(app, name));
    // npx installs a tarball into <cache>/_npx: a cache of this test's own keeps the user's clean.
    const run = spawnSync(
      "npx",
      ["--yes", "--cache", join(work, "npm-cache"), `./${name}`, "scan", ".", "--fail-on", "none"],
      {
        cwd: app,
        encoding: "utf8",
        timeout: 240_000,
        env: { ...process.env, npm_config_update_notifier: "false" },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("legacy-create-run");
    // The next step is a command that works here: the tarball, not a registry name.
    expect(run.stdout.trimEnd().split("\n").pop()).toMatch(
      new RegExp(`\`npx \\./${name.replace(/\./g, "\\.")} fix --dry-run\`$`),
    );
  }, 240_000);

  it("is a typed library: imported in ESM, and type-checked by tsc against the shipped declarations", () => {
    const app = join(work, "lib-app");
    mkdirSync(app);
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" })}\n`,
    );
    const install = npm(["install", "--prefer-offline", "--omit=dev", tarball], app);
    expect(install.status, install.stderr).toBe(0);
    cpSync(join(REPO_ROOT, "fixtures", "demo-app"), join(app, "demo"), { recursive: true });
    const program = [
      'import { scan, buildReport, renderCompact, renderJunit, summarize, planFix, RULE_IDS, campaignTools } from "comfydeploy-migrate";',
      'const report = buildReport(await scan({ root: "demo" }));',
      'const plan = await planFix({ root: "demo" });',
      "const counts: { total: number } = summarize(report.findings);",
      'const first: string = renderCompact(report).split("\\n")[0] ?? "";',
      'console.log(JSON.stringify({ total: counts.total, first, junit: renderJunit(report).startsWith("<?xml"), changes: plan.changes.length, rules: RULE_IDS.length, door: typeof campaignTools.scan }));',
      "",
    ].join("\n");
    writeFileSync(join(app, "use.ts"), program);
    writeFileSync(join(app, "use.mjs"), program.replace(/: \{ total: number \}|: string/g, ""));
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(REPO_ROOT, "node_modules", "@types")],
        },
        files: ["use.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
      { cwd: app, encoding: "utf8" },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const run = spawnSync(process.execPath, ["use.mjs"], { cwd: app, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      total: number;
      first: string;
      junit: boolean;
      changes: number;
      rules: number;
      door: string;
    };
    expect(out.total).toBeGreaterThan(10);
    expect(out.first).toMatch(/^[^:]+:\d+:\d+: (error|warning|info) [a-z0-9-]+ /);
    expect(out).toMatchObject({ junit: true, door: "function" });
    expect(out.changes).toBeGreaterThan(0);
    // A production install holds one TypeScript, the one ts-morph bundles.
    expect(existsSync(join(app, "node_modules", "typescript"))).toBe(false);
  }, 240_000);
});
