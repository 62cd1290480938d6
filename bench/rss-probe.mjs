// Preloaded into the scanner process by scan-bench.mjs (node --import).
// At exit, the main thread writes the process's peak resident set size
// (process.resourceUsage().maxRSS, in KB; it covers worker threads too) and
// its CPU time (microseconds) to the file named by COMFYDEPLOY_BENCH_RSS_FILE,
// so nothing is mixed into stdout.
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const target = process.env.COMFYDEPLOY_BENCH_RSS_FILE;

if (target && isMainThread) {
  process.on("exit", (code) => {
    const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
    try {
      writeFileSync(target, JSON.stringify({ maxRSS, userCPUTime, systemCPUTime, code }));
    } catch {
      // The benchmark reports a missing measurement; never change the exit status here.
    }
  });
}
