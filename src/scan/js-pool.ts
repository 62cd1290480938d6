/**
 * Runs the JS/TS analysis in-process or on worker threads. The analyzer (and
 * with it TypeScript) is loaded only here, on first use.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Finding } from "../core/finding.js";
import type { JsAnalyzer } from "./js/analyze.js";
import type { HostSet } from "../core/urls.js";
import type { HeldBase } from "./held-base.js";
import { precompileTypeScript, withTypeScriptOnly } from "../platform/typescript.js";

export interface JsWork {
  file: string;
  text: string;
  /** For an importer found by the follow-up: the client modules it was found for (a re-export of one of them is what counts). */
  clientModules?: readonly string[];
}

export interface JsWorkResult {
  file: string;
  findings: Finding[];
  exportsClient: boolean;
  importsSdk: boolean;
  error?: string;
}

export interface PoolOptions {
  root: string;
  files: readonly string[];
  hosts: HostSet;
  /** Where the repository sets a ComfyDeploy API base: V1-shaped requests on unresolved bases are taken to be on it. */
  legacyBase?: HeldBase;
  threads: boolean;
}

/** In-process analysis lets the event loop run at least this often. */
const YIELD_EVERY_MS = 10;
/** Work is sent to threads in batches: fewer messages, and dependency parses are shared inside a batch. */
const BATCH_SIZE = 32;

export abstract class JsPool {
  static async create(options: PoolOptions): Promise<JsPool> {
    const workerFile = fileURLToPath(new URL("./js-worker.js", import.meta.url));
    // From TypeScript sources (tests) there is no compiled worker: stay in-process.
    if (options.threads && existsSync(workerFile)) return new ThreadPool(options, workerFile);
    return new InProcessPool(options);
  }

  abstract analyze(work: JsWork[], onFile: () => void): Promise<JsWorkResult[]>;
  abstract close(): Promise<void>;
  /** Adds threads up to `count` (a no-op in-process). */
  grow(count: number): void {
    void count;
  }
}

let analyzerModule: Promise<typeof import("./js/analyze.js")> | undefined;
/** The analyzer's module, loaded once, with TypeScript's compiled code from the compile cache. */
function loadAnalyzer(): Promise<typeof import("./js/analyze.js")> {
  if (!analyzerModule) precompileTypeScript();
  analyzerModule ??= withTypeScriptOnly(() => import("./js/analyze.js"));
  return analyzerModule;
}

/** Starts loading the analyzer (TypeScript) in this thread while it waits on other processes. */
export function preloadAnalyzer(): void {
  loadAnalyzer().catch(() => undefined);
}

type AnalyzerOptions = Pick<PoolOptions, "root" | "files" | "hosts" | "legacyBase">;

export async function createAnalyzer(options: AnalyzerOptions): Promise<JsAnalyzer> {
  const { JsAnalyzer } = await loadAnalyzer();
  return new JsAnalyzer(options.root, new Set(options.files), options.hosts, options.legacyBase);
}

class InProcessPool extends JsPool {
  private analyzer: Promise<JsAnalyzer> | undefined;

  constructor(private readonly options: PoolOptions) {
    super();
  }

  async analyze(work: JsWork[], onFile: () => void): Promise<JsWorkResult[]> {
    if (work.length === 0) return [];
    this.analyzer ??= createAnalyzer(this.options);
    const analyzer = await this.analyzer;
    const results: JsWorkResult[] = [];
    let since = performance.now();
    for (const { file, text, clientModules } of work) {
      // Other work of the scan (rg indexing imports beside the parser) is read between files, or its pipe stalls it.
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      results.push({ file, ...analyzer.analyze(file, text, clientModules) });
      onFile();
    }
    return results;
  }

  /** Lets the analyzer go, and with it the syntax trees it keeps for cross-file lookups. */
  async close(): Promise<void> {
    this.analyzer = undefined;
  }
}

/** Threads start with one worker, which loads TypeScript while the main thread is still reading files. */
class ThreadPool extends JsPool {
  private readonly workers: Worker[] = [];
  private readonly workerData: AnalyzerOptions;

  constructor(
    options: PoolOptions,
    private readonly workerFile: string,
  ) {
    super();
    const { root, files, hosts, legacyBase } = options;
    this.workerData = { root, files, hosts, ...(legacyBase ? { legacyBase } : {}) };
    this.grow(1);
  }

  override grow(count: number): void {
    const target = Math.max(1, Math.min(count, availableParallelism(), 4));
    while (this.workers.length < target)
      this.workers.push(new Worker(this.workerFile, { workerData: this.workerData }));
  }

  async analyze(work: JsWork[], onFile: () => void): Promise<JsWorkResult[]> {
    const batches: JsWork[][] = [];
    for (let i = 0; i < work.length; i += BATCH_SIZE) batches.push(work.slice(i, i + BATCH_SIZE));
    const results: JsWorkResult[] = [];
    let next = 0;
    await Promise.all(
      this.workers.map(async (worker) => {
        while (next < batches.length) {
          const batch = batches[next++]!;
          const batchResults = await send(worker, batch);
          for (const r of batchResults) {
            results.push(r);
            onFile();
          }
        }
      }),
    );
    return results;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function send(worker: Worker, batch: JsWork[]): Promise<JsWorkResult[]> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { results?: JsWorkResult[]; error?: string }): void => {
      cleanup();
      if (message.error) reject(new Error(message.error));
      else resolve(message.results ?? []);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      worker.off("message", onMessage);
      worker.off("error", onError);
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.postMessage(batch);
  });
}
