/**
 * The campaign file (`campaign.yml`): which repositories a campaign covers and
 * how. One zod schema validates it and is also the source of the published
 * JSON Schema (schema/campaign-file.schema.json), so the two cannot drift.
 * Every mistake is a usage error that names the key at fault.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod/v4";
import { parseDocument } from "yaml";
import { UsageError } from "../core/errors.js";
import { keyPath } from "../platform/key-path.js";
import { FAIL_ON_CHOICES } from "./tool-api.js";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Report files are named after repositories, so names are safe file names. */
export const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SLUG = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

const repositorySchema = z
  .strictObject({
    url: z
      .string()
      .regex(/^[^-\s]/)
      .describe("A git URL (https, ssh, file) or a path to a local git repository, relative to the campaign file."),
    name: z
      .string()
      .regex(REPO_NAME)
      .optional()
      .describe(
        "Name of the repository in reports (its report is repos/<name>.json). Default: the last part of the URL or path.",
      ),
    path: z.string().min(1).optional().describe("Scan this directory of the repository instead of its root."),
    base: z
      .string()
      .min(1)
      .optional()
      .describe("Branch to scan and to open pull requests into. Default: the repository's default branch."),
    deploymentId: z
      .string()
      .regex(UUID)
      .optional()
      .describe("Deployment whose live check (campaign run --check) belongs to this repository."),
    github: z
      .string()
      .regex(SLUG)
      .optional()
      .describe("GitHub owner/name, when the URL does not say it (e.g. a local path or a mirror)."),
  })
  .describe("One repository of the campaign.");

const githubSchema = z
  .strictObject({
    org: z
      .string()
      .min(1)
      .describe(
        "List this organisation's repositories through the GitHub REST API (token in GITHUB_TOKEN or GH_TOKEN).",
      ),
    topic: z.string().min(1).optional().describe("Only the organisation's repositories with this topic."),
    apiUrl: z
      .url()
      .optional()
      .describe(
        "GitHub API base, e.g. for GitHub Enterprise Server. Default: GITHUB_API_URL or https://api.github.com.",
      ),
    includeArchived: z
      .boolean()
      .optional()
      .describe("Also list archived repositories (they cannot take pull requests)."),
  })
  .describe("Repositories found through the GitHub API, added to the listed ones.");

const pullRequestSchema = z
  .strictObject({
    branch: z
      .string()
      .min(1)
      .optional()
      .describe("Branch the fix is pushed to (default: pr's comfydeploy-migrate/v2)."),
    title: z.string().min(1).optional().describe("Pull request title."),
    labels: z.array(z.string().min(1)).optional().describe("Labels to add."),
    draft: z.boolean().optional().describe("Open pull requests as drafts."),
  })
  .describe("How campaign run --open-prs opens pull requests.");

export const campaignFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    repositories: z
      .array(repositorySchema)
      .optional()
      .describe("The repositories: git URLs or local paths, each with optional settings."),
    github: githubSchema.optional(),
    failOn: z.enum(FAIL_ON_CHOICES).optional().describe("Default for --fail-on."),
    legacyHosts: z
      .array(z.string().min(1))
      .optional()
      .describe("Other hosts that serve the V1 API, for every repository."),
    pullRequests: pullRequestSchema.optional(),
  })
  .describe("A comfydeploy-migrate campaign: many repositories scanned, fixed and tracked together.");

export type CampaignFile = z.infer<typeof campaignFileSchema>;
export type RepositoryEntry = z.infer<typeof repositorySchema>;

/** The published JSON Schema of the campaign file. */
export function campaignFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(campaignFileSchema, { target: "draft-2020-12", io: "input" }),
    $id: "https://github.com/comfydeploy-migrate/comfydeploy-migrate/raw/main/schema/campaign-file.schema.json",
    title: "comfydeploy-migrate campaign file",
  };
}

export async function readCampaignFile(file: string): Promise<CampaignFile> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `campaign file not found: ${file}${error.code && error.code !== "ENOENT" ? ` (${error.code})` : ""}`,
    );
  });
  return parseCampaignFile(text, file);
}

export function parseCampaignFile(text: string, where: string): CampaignFile {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem) {
    const at = problem.linePos?.[0];
    throw new UsageError(
      `${where}${at ? `:${at.line}:${at.col}` : ""}: not valid YAML: ${problem.message.split("\n")[0]}`,
    );
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined)
    throw new UsageError(`${where}: empty; list the repositories under "repositories:"`);
  const parsed = campaignFileSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${where}: ${describeIssue(parsed.error.issues)}`);
  return parsed.data;
}

type Issue = z.core.$ZodIssue;

/** The first problem, unknown keys first (the usual typo), as `key.path: what is wrong`. */
function describeIssue(issues: readonly Issue[]): string {
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  const at = keyPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const known = knownKeys(issue.path).filter((k) => k !== "$schema");
    return `unknown key "${at ? `${at}.` : ""}${key}"${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`;
  }
  if (issue.code === "invalid_type") {
    return `"${at || "(top level)"}" must be ${article(issue.expected)}${issue.input === undefined ? " (missing)" : ""}`;
  }
  if (issue.code === "invalid_value") return `"${at}" must be one of ${issue.values.map(String).join(", ")}`;
  if (issue.code === "invalid_format") return `"${at}" is not ${formatOf(at)}`;
  return `"${at || "(top level)"}": ${issue.message}`;
}

function article(expected: string): string {
  if (expected === "object") return "a mapping";
  if (expected === "array") return "a list";
  return `a ${expected}`;
}

function formatOf(at: string): string {
  if (at.endsWith("deploymentId")) return "a uuid";
  if (at.endsWith(".url")) return "a git URL or a path (it may not start with '-' or a space)";
  if (at.endsWith(".name")) return "a name of letters, digits, '.', '_' and '-'";
  if (at.endsWith(".github")) return "owner/name";
  if (at.endsWith("apiUrl")) return "a URL";
  return "valid";
}

/** The keys the schema allows at a path, for "unknown key" messages. */
function knownKeys(path: readonly PropertyKey[]): string[] {
  let node: z.ZodType = campaignFileSchema;
  for (const part of path) {
    node = unwrap(node);
    if (node instanceof z.ZodArray) node = node.element as z.ZodType;
    else if (node instanceof z.ZodObject) node = (node.shape as Record<string, z.ZodType>)[String(part)]!;
    if (!node) return [];
  }
  node = unwrap(node);
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

function unwrap(node: z.ZodType): z.ZodType {
  return node instanceof z.ZodOptional ? (node.unwrap() as z.ZodType) : node;
}
