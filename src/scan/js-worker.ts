/** Worker thread entry: analyses batches of JS/TS files sent by the pool. */
import { parentPort, workerData } from "node:worker_threads";
import type { JsWork, JsWorkResult } from "./js-pool.js";
import { createAnalyzer } from "./js-pool.js";

const analyzer = createAnalyzer(workerData as Parameters<typeof createAnalyzer>[0]);

parentPort?.on("message", async (batch: JsWork[]) => {
  try {
    const ready = await analyzer;
    const results: JsWorkResult[] = batch.map(({ file, text, clientModules }) => ({
      file,
      ...ready.analyze(file, text, clientModules),
    }));
    parentPort?.postMessage({ results });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
