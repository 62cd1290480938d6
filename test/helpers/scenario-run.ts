/**
 * Runs a scenario app's contract against the emulator. The app (a scenario
 * fixture or a migrated copy of one) is copied under test/.tmp/; its server
 * modules are transpiled to ES modules (TypeScript's transpileModule, local
 * imports and the `@/` alias rewritten to the emitted files); `comfydeploy`
 * in the copy's node_modules is a link to the chosen SDK; `next/*` and axios,
 * when the app declares them, are small stand-ins. A child process with the
 * app's environment pointed at the emulator calls the contract's functions;
 * this process checks what they answered against the emulator's own records.
 * Everything is removed afterwards, also on failure.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import type { Emulator } from "../../src/serve/server.js";
import { scratchDir } from "./demo-copy.js";
import { startTestEmulator, TEST_TOKEN } from "./emulator.js";
import { type ContractCall, readScenarioSpec, type ScenarioSpec } from "./scenario-spec.js";
import { SDK_MODULE, SDK_PACKAGE_DIRS, type SdkVersion } from "./scenario-typecheck.js";
import { readTsconfig } from "./typecheck.js";

/** legacy: the emulator as `serve --legacy` (V1 endpoints besides V2); v2: V2 endpoints only. */
export type EndpointMode = "legacy" | "v2";

export interface ScenarioRunOptions {
  /** The app: a scenario fixture, or a migrated copy of one. */
  appDir: string;
  /** What `comfydeploy` resolves to in the app. */
  sdk: SdkVersion;
  endpoints: EndpointMode;
  /** Defaults to the app's scenario.json. */
  spec?: ScenarioSpec;
}

export interface StepOutcome {
  module: string;
  call: string;
  expect: ContractCall["expect"];
  /** How often the function was called (run-succeeded repeats it while the run is unfinished). */
  attempts: number;
  result?: unknown;
  /** The call threw, or the module could not be loaded: the error's name and message. */
  error?: string;
  stack?: string;
  /** Why the outcome breaks the contract; absent when it holds. */
  problem?: string;
}

export interface ScenarioRunReport {
  steps: StepOutcome[];
  /** Every contract breach, one line each; empty when the contract holds. */
  problems: string[];
  /** Requests the emulator received, in order. */
  requests: Array<{ method: string; path: string }>;
  /** What the app wrote to stderr (the V1 SDK logs its failures there). */
  stderr: string;
}

/** The deployment the app's environment names; the emulator accepts any. */
export const SCENARIO_DEPLOYMENT_ID = "0f3b6c2e-8a41-4d9b-b7e5-2c6a9d1e4f70";

/** Statuses after which a run does not change (shared/docs/v1-to-v2.md §5). */
const TERMINAL_STATUSES = ["success", "failed", "timeout", "cancelled"];
/** With the emulator's 20 ms steps a run finishes in about 100 ms; this bound is far above it. */
const MAX_POLLS = 200;
const POLL_INTERVAL_MS = 25;
const CHILD_TIMEOUT_MS = 60_000;
const TS_SOURCE = /\.(ts|tsx|mts|cts)$/;

export async function runScenarioContract(options: ScenarioRunOptions): Promise<ScenarioRunReport> {
  const spec = options.spec ?? readScenarioSpec(options.appDir);
  const work = scratchDir("scenario-run-");
  let emulator: Emulator | undefined;
  try {
    const app = join(work, "app");
    cpSync(options.appDir, app, {
      recursive: true,
      filter: (source) => !relative(options.appDir, source).split(sep).includes("node_modules"),
    });
    const runnable = prepareModules(app, spec);
    installDependencies(app, options.sdk);

    emulator = await startTestEmulator({ legacy: options.endpoints === "legacy" });
    const origin = emulator.baseUrl.replace(/\/api$/, "");
    const placeholders: Record<string, string> = {
      origin,
      apiBase: emulator.baseUrl,
      token: TEST_TOKEN,
      deploymentId: SCENARIO_DEPLOYMENT_ID,
    };
    const env = Object.fromEntries(
      Object.entries(spec.env).map(([name, value]) => [
        name,
        value.replace(/\{(\w+)\}/g, (all, key: string) => placeholders[key] ?? all),
      ]),
    );

    const plan = {
      terminal: TERMINAL_STATUSES,
      maxPolls: MAX_POLLS,
      pollMs: POLL_INTERVAL_MS,
      steps: spec.contract.map((step) => ({ ...step, file: runnable.get(step.module) })),
    };
    writeFileSync(join(work, "plan.json"), JSON.stringify(plan));
    writeFileSync(join(work, "driver.mjs"), DRIVER);
    const { stderr } = await runChild(
      join(work, "driver.mjs"),
      [join(work, "plan.json"), join(work, "outcomes.json")],
      app,
      env,
    );

    const raw = existsSync(join(work, "outcomes.json"))
      ? (JSON.parse(readFileSync(join(work, "outcomes.json"), "utf8")) as RawOutcome[])
      : [];
    const steps = spec.contract.map((step, index) => judge(step, raw[index], emulator!));
    const problems = steps.flatMap((step) => (step.problem ? [`${step.module} ${step.call}(): ${step.problem}`] : []));
    return { steps, problems, requests: [...emulator.requests], stderr };
  } finally {
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

interface RawOutcome {
  attempts: number;
  result?: unknown;
  undefinedResult?: boolean;
  /** For run-id steps: the id the result carries. */
  saved?: unknown;
  /** For run-succeeded steps: the run asked about. */
  runId?: unknown;
  error?: string;
  stack?: string;
}

function judge(step: ContractCall, raw: RawOutcome | undefined, emulator: Emulator): StepOutcome {
  const base = { module: step.module, call: step.call, expect: step.expect, attempts: raw?.attempts ?? 0 };
  if (!raw) return { ...base, problem: "not called (an earlier step failed)" };
  const outcome: StepOutcome = {
    ...base,
    result: raw.result,
    ...(raw.error ? { error: raw.error, stack: raw.stack } : {}),
  };
  if (raw.error) return { ...outcome, problem: `threw: ${firstLine(raw.error)}` };
  const shown = raw.undefinedResult ? "undefined" : JSON.stringify(raw.result);
  switch (step.expect) {
    case "run-id": {
      const id = raw.saved;
      if (typeof id !== "string")
        return { ...outcome, problem: `expected a run id${step.field ? ` in .${step.field}` : ""}, got ${shown}` };
      if (!emulator.store.get(id)) return { ...outcome, problem: `run id ${id} is not a run the API holds` };
      return outcome;
    }
    case "run-succeeded": {
      const result = raw.result as { status?: unknown; outputs?: unknown } | null | undefined;
      const runId = typeof raw.runId === "string" ? raw.runId : undefined;
      if (!result || typeof result !== "object") return { ...outcome, problem: `expected a run record, got ${shown}` };
      if (result.status !== "success")
        return {
          ...outcome,
          problem: `status is ${JSON.stringify(result.status)} after ${raw.attempts} calls, expected "success"`,
        };
      if (!Array.isArray(result.outputs) || result.outputs.length === 0)
        return { ...outcome, problem: `no outputs on the finished run: ${shown}` };
      if (runId && !JSON.stringify(result.outputs).includes(runId))
        return { ...outcome, problem: `the outputs are not those of run ${runId}` };
      return outcome;
    }
    case "null":
      return raw.result === null && !raw.undefinedResult
        ? outcome
        : { ...outcome, problem: `expected null, got ${shown}` };
  }
}

/**
 * Transpiles the TypeScript reachable from the server modules into .mjs files
 * beside their sources; JavaScript modules run as they are. Answers, per
 * module named in the scenario, the file the child process imports.
 */
function prepareModules(app: string, spec: ScenarioSpec): Map<string, string> {
  const runnable = new Map<string, string>();
  const modules = new Set([...spec.serverModules, ...spec.contract.map((step) => step.module)]);
  if (spec.language === "javascript") {
    for (const module of modules) runnable.set(module, join(app, module));
    return runnable;
  }
  if (spec.language !== "typescript") throw new Error(`cannot run a ${spec.language} scenario`);
  const { options } = readTsconfig(join(app, "tsconfig.json"));
  const emitted = new Map<string, string>();
  const queue = [...modules].map((module) => resolve(app, module));
  const emittedName = (file: string) => file.replace(TS_SOURCE, ".mjs");
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (emitted.has(file)) continue;
    if (!TS_SOURCE.test(file) || file.endsWith(".tsx"))
      throw new Error(`${relative(app, file)}: only .ts server modules can run here`);
    const rewrite = (specifier: string): string | undefined => {
      const found = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      if (
        !found ||
        found.isExternalLibraryImport ||
        !found.resolvedFileName.startsWith(app + sep) ||
        found.resolvedFileName.endsWith(".d.ts")
      ) {
        return undefined;
      }
      queue.push(found.resolvedFileName);
      const target = relative(dirname(file), emittedName(found.resolvedFileName)).split(sep).join("/");
      return target.startsWith(".") ? target : `./${target}`;
    };
    const output = ts.transpileModule(readFileSync(file, "utf8"), {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        sourceMap: false,
      },
      transformers: { after: [specifierRewriter(rewrite)] },
    });
    writeFileSync(emittedName(file), output.outputText);
    emitted.set(file, emittedName(file));
  }
  for (const module of modules) runnable.set(module, emitted.get(resolve(app, module))!);
  return runnable;
}

/** Replaces the module specifiers of static imports/exports and `import()` when `rewrite` has a replacement. */
function specifierRewriter(rewrite: (specifier: string) => string | undefined): ts.TransformerFactory<ts.SourceFile> {
  return (context) => {
    const { factory } = context;
    const visit = (node: ts.Node): ts.Node => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const next = rewrite(node.moduleSpecifier.text);
        if (next)
          return factory.updateImportDeclaration(
            node,
            node.modifiers,
            node.importClause,
            factory.createStringLiteral(next),
            node.attributes,
          );
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const next = rewrite(node.moduleSpecifier.text);
        if (next) {
          return factory.updateExportDeclaration(
            node,
            node.modifiers,
            node.isTypeOnly,
            node.exportClause,
            factory.createStringLiteral(next),
            node.attributes,
          );
        }
      }
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const next = rewrite(node.arguments[0].text);
        if (next)
          return factory.updateCallExpression(node, node.expression, node.typeArguments, [
            factory.createStringLiteral(next),
            ...node.arguments.slice(1),
          ]);
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (source) => ts.visitNode(source, visit) as ts.SourceFile;
  };
}

/** node_modules of the copy: the SDK link, and stand-ins for the declared dependencies the server code may load. */
function installDependencies(app: string, sdk: SdkVersion): void {
  const modules = join(app, "node_modules");
  mkdirSync(modules, { recursive: true });
  symlinkSync(SDK_PACKAGE_DIRS[sdk], join(modules, SDK_MODULE), "dir");
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  for (const [name, files] of Object.entries(STAND_INS)) {
    if (!declared.has(name)) continue;
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(modules, name, file)), { recursive: true });
      writeFileSync(join(modules, name, file), text);
    }
  }
}

/** Only what server modules touch: Next's request-scoped helpers are no-ops, axios is fetch. */
const STAND_INS: Record<string, Record<string, string>> = {
  next: {
    "package.json": JSON.stringify({
      name: "next",
      type: "module",
      exports: { "./server": "./server.js", "./cache": "./cache.js", "./headers": "./headers.js" },
    }),
    "server.js":
      "export class NextResponse extends Response {\n  static json(body, init) {\n    return Response.json(body, init);\n  }\n}\n",
    "cache.js":
      "export function revalidatePath() {}\nexport function revalidateTag() {}\nexport function unstable_noStore() {}\n",
    "headers.js":
      "export async function headers() {\n  return new Headers();\n}\nexport async function cookies() {\n  return { get: () => undefined, getAll: () => [] };\n}\n",
  },
  axios: {
    "package.json": JSON.stringify({ name: "axios", main: "index.js" }),
    "index.js": `async function request(method, url, body, config = {}) {
  const target = new URL(url);
  for (const [key, value] of Object.entries(config.params || {})) target.searchParams.set(key, String(value));
  const headers = { ...(config.headers || {}) };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw Object.assign(new Error("Request failed with status code " + response.status), { response: { status: response.status, data } });
  return { data, status: response.status, headers: Object.fromEntries(response.headers) };
}
const axios = {
  get: (url, config) => request("GET", url, undefined, config),
  post: (url, body, config) => request("POST", url, body, config),
};
axios.default = axios;
module.exports = axios;
`,
  },
};

function runChild(
  script: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done({ stderr });
      else
        fail(new Error(`the contract driver ${signal ? `was killed (${signal})` : `exited with ${code}`}:\n${stderr}`));
    });
  });
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}

/**
 * The child process: imports each step's module, calls the function (again
 * while a run-succeeded step's run is unfinished), saves run ids for later
 * steps and writes the outcomes as JSON. It stops at the first call that
 * throws or gives no run id, since later calls depend on earlier ones.
 */
const DRIVER = `import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [planFile, outcomesFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const terminal = new Set(plan.terminal);
const saved = {};
const outcomes = [];
const pause = () => new Promise((done) => setTimeout(done, plan.pollMs));

for (const step of plan.steps) {
  const outcome = { attempts: 0 };
  outcomes.push(outcome);
  try {
    const loaded = await import(pathToFileURL(step.file).href);
    const fn = typeof loaded[step.call] === "function" ? loaded[step.call] : loaded.default?.[step.call];
    if (typeof fn !== "function") throw new Error(step.module + " exports no function " + step.call);
    const args = step.args.map((arg) => (typeof arg === "string" && arg.startsWith("$") ? saved[arg.slice(1)] : arg));
    if (step.expect === "run-succeeded") outcome.runId = args[0];
    let result;
    do {
      if (outcome.attempts > 0) await pause();
      outcome.attempts += 1;
      result = await fn(...args);
    } while (step.expect === "run-succeeded" && outcome.attempts < plan.maxPolls && !(result && terminal.has(result.status)));
    outcome.result = result === undefined ? null : result;
    outcome.undefinedResult = result === undefined;
    if (step.expect === "run-id") {
      outcome.saved = step.field ? result?.[step.field] : result;
      if (step.save) saved[step.save] = outcome.saved;
      if (typeof outcome.saved !== "string") break;
    }
  } catch (error) {
    outcome.error = error instanceof Error ? error.name + ": " + error.message : String(error);
    outcome.stack = error instanceof Error ? String(error.stack) : undefined;
    break;
  }
}
writeFileSync(outcomesFile, JSON.stringify(outcomes));
// The app may keep timers or sockets open; the outcomes are written, so end here.
process.exit(0);
`;
