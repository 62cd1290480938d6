/**
 * The config file's schema: one zod schema validates it and is the source of
 * the published JSON Schema (schema/config.schema.json) that editors read, so
 * the two cannot drift. A mistake becomes one line that names the key.
 */
import { z } from "zod/v4";
import { RULE_IDS } from "../rules/catalog.js";
import { didYouMean } from "./did-you-mean.js";
import { FAIL_ON_CHOICES } from "./fail-on.js";
import { keyPath } from "./key-path.js";

const SEVERITIES = ["error", "warning", "info"] as const;

const hostList = (what: string) => z.array(z.string().min(1)).optional().describe(what);
const globList = (what: string) => z.array(z.string().min(1)).optional().describe(what);

const ruleObjectSchema = z
  .strictObject({
    severity: z.enum(SEVERITIES).optional().describe("Report the rule's findings at this severity."),
    off: z.boolean().optional().describe("true: never report the rule."),
    paths: globList(
      "Report the rule only in files matching these globs (picomatch, repository-relative); a glob starting with ! excludes files instead.",
    ),
  })
  .describe("Settings of one rule.");

const ruleSettingSchema = z
  .union([z.enum(["off", ...SEVERITIES]), ruleObjectSchema])
  .describe('"off", a severity, or { severity, off, paths }.')
  .meta({ id: "ruleSetting" });

const rulesSchema = z
  .strictObject(
    Object.fromEntries(RULE_IDS.map((id) => [id, ruleSettingSchema.optional()])) as Record<
      (typeof RULE_IDS)[number],
      z.ZodOptional<typeof ruleSettingSchema>
    >,
  )
  .describe("Per-rule settings, by rule id.");

export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe("The JSON Schema of this file, for editors."),
    legacyHosts: hostList(
      "Other hosts that serve the V1 API, e.g. a white-label or self-hosted deployment (host, or URL).",
    ),
    currentHosts: hostList("Other hosts that serve V2."),
    ignoreHosts: hostList("Hosts never reported."),
    include: globList("Only scan files matching these globs."),
    exclude: globList("Skip files matching these globs."),
    failOn: z.enum(FAIL_ON_CHOICES).optional().describe("Default for --fail-on."),
    reportUnusedIgnores: z
      .boolean()
      .optional()
      .describe("Default for --report-unused-ignores (otherwise on only when CI is set)."),
    rules: rulesSchema.optional(),
  })
  .describe(
    "comfydeploy-migrate configuration: .comfydeploy-migrate.json(c), or a comfydeploy-migrate key in package.json.",
  );

export type ConfigInput = z.infer<typeof configSchema>;
export type RuleSettingInput = z.infer<typeof ruleSettingSchema>;

/** The published JSON Schema of the config file. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, {
      target: "draft-2020-12",
      io: "input",
      // The rule setting is written once, under $defs/ruleSetting; its id is a name there, not a keyword.
      override: (ctx) => void delete (ctx.jsonSchema as { id?: unknown }).id,
    }),
    $id: "https://github.com/comfydeploy-migrate/comfydeploy-migrate/raw/main/schema/config.schema.json",
    title: "comfydeploy-migrate config",
  };
}

/** Validates a parsed config; returns it, or one line naming the key at fault. */
export function validateConfig(value: unknown): { ok: true; config: ConfigInput } | { ok: false; problem: string } {
  const parsed = configSchema.safeParse(value);
  return parsed.success
    ? { ok: true, config: parsed.data }
    : { ok: false, problem: describeIssue(parsed.error.issues, [], value) };
}

type Issue = z.core.$ZodIssue;

/** The first problem, unknown keys first (the usual typo), as `key.path: what is wrong`. */
function describeIssue(issues: readonly Issue[], prefix: readonly PropertyKey[], input: unknown): string {
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  const path = [...prefix, ...issue.path];
  const at = keyPath(path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const key = issue.keys[0]!;
      const known = knownKeys(path);
      return `unknown key "${at ? `${at}.` : ""}${key}"${didYouMean(key, known)}`;
    }
    case "invalid_union": {
      // The branch the value was meant for: the one that got furthest (a wrong type at the root is worst, a wrong value next).
      const miss = (errors: readonly Issue[]): number =>
        Math.max(
          0,
          ...errors.map((e) =>
            e.path.length > 0 ? 0 : e.code === "invalid_type" ? 2 : e.code === "invalid_value" ? 1 : 0,
          ),
        );
      const best = [...issue.errors].sort((a, b) => miss(a) - miss(b))[0];
      const value = valueAt(input, path);
      const plausible =
        typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value));
      if (best && plausible && miss(best) < 2) return describeIssue(best, path, input);
      return `"${at}" must be "off", a severity (error, warning, info) or an object { severity, off, paths }`;
    }
    case "invalid_type":
      return `"${at || "(top level)"}" must be ${article(issue.expected)}`;
    case "invalid_value": {
      const given = valueAt(input, path);
      const choices = issue.values.map(String);
      return `"${at}" must be one of ${choices.join(", ")}${typeof given === "string" ? `, not "${given}"${didYouMean(given, choices)}` : ""}`;
    }
    default:
      return `"${at || "(top level)"}": ${issue.message}`;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const part of path)
    node = typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[part] : undefined;
  return node;
}

function article(expected: string): string {
  if (expected === "object") return "an object";
  if (expected === "array") return "an array";
  return `a ${expected}`;
}

/** The keys the schema allows at a path, for "unknown key" messages. */
function knownKeys(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return Object.keys(configSchema.shape).filter((k) => k !== "$schema");
  if (path[0] === "rules" && path.length === 1) return [...RULE_IDS];
  if (path[0] === "rules" && path.length === 2) return Object.keys(ruleObjectSchema.shape);
  return [];
}
