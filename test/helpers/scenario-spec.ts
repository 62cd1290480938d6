/**
 * The scenario apps under fixtures/scenarios/<name>/ and their scenario.json:
 * which module is the app's server side, which environment variables point it
 * at the API, and the calls whose results the app's callers rely on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const SCENARIOS_ROOT = join(import.meta.dirname, "..", "..", "fixtures", "scenarios");

/**
 * What a contract call must answer:
 * - `run-id`: the value (at `field`, else the result itself) is the id of a run the API now holds;
 * - `run-succeeded`: repeated while the run is unfinished, it ends as `status: "success"` with
 *   a non-empty `outputs` array that belongs to that run;
 * - `null`: the call answers null (the V1 way of failing softly).
 */
export const EXPECTATIONS = ["run-id", "run-succeeded", "null"] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

const contractCallSchema = z
  .object({
    /** Path of the module, relative to the app. */
    module: z.string(),
    /** Name of the exported function. */
    call: z.string(),
    /** Arguments; a string "$name" is the value an earlier call saved as `name`. */
    args: z.array(z.unknown()),
    expect: z.enum(EXPECTATIONS),
    /** For `run-id`: the result's field that holds the id. */
    field: z.string().optional(),
    /** Saves the `run-id` value under this name for later calls. */
    save: z.string().optional(),
    /** Why this is part of the contract, when it is not obvious. */
    why: z.string().optional(),
  })
  .strict();

const scenarioSchema = z
  .object({
    description: z.string(),
    language: z.enum([
      "typescript",
      "javascript",
      "python",
      "php",
      "go",
      "ruby",
      "csharp",
      "java",
      "kotlin",
      "dart",
      "shell",
    ]),
    /** What the unmigrated app uses: the V1 SDK or none, and which endpoints it calls. */
    original: z.object({ sdk: z.enum(["v1", "none"]), endpoints: z.enum(["legacy", "v2"]) }).strict(),
    /** The app's server-side entry modules. */
    serverModules: z.array(z.string()).min(1),
    /**
     * Environment the app reads, with placeholders filled in by the harness:
     * {origin} (http://host:port), {apiBase} ({origin}/api), {token}, {deploymentId}.
     */
    env: z.record(z.string()),
    contract: z.array(contractCallSchema),
    notes: z.string().optional(),
  })
  .strict();

export type ContractCall = z.infer<typeof contractCallSchema>;
export type ScenarioSpec = z.infer<typeof scenarioSchema>;

export interface Scenario {
  name: string;
  dir: string;
  spec: ScenarioSpec;
}

/** Reads and validates <dir>/scenario.json. */
export function readScenarioSpec(dir: string): ScenarioSpec {
  const file = join(dir, "scenario.json");
  const parsed = scenarioSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`${file}: ${issues}`);
  }
  return parsed.data;
}

/** Every scenario under fixtures/scenarios/, by name. */
export function listScenarios(): Scenario[] {
  return readdirSync(SCENARIOS_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(SCENARIOS_ROOT, entry.name, "scenario.json")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(SCENARIOS_ROOT, name);
      return { name, dir, spec: readScenarioSpec(dir) };
    });
}
