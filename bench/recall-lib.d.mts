/** Types of recall-lib.mjs, for the tests that share its matching logic. */

export interface TruthEntry {
  file: string;
  line: number;
  rule: string;
  shape: string;
  note?: string;
  /** Overrides the language derived from the file name. */
  language?: string;
}

export interface NegativeEntry {
  file: string;
  line: number;
  shape: string;
  note?: string;
}

export interface Truth {
  description?: string;
  findings: TruthEntry[];
  negatives: NegativeEntry[];
}

/** A finding as the JSON report has it (only the fields judged). */
export interface ScanFinding {
  file: string;
  line: number;
  ruleId: string;
  severity: string;
}

export interface JudgedFinding {
  file: string;
  line: number;
  rule: string;
}

export interface MatchResult {
  matched: TruthEntry[];
  ruleMismatches: Array<{ truth: TruthEntry; finding: JudgedFinding }>;
  missed: TruthEntry[];
  falsePositives: JudgedFinding[];
}

export type Corpus = "real-shapes" | "real-shapes-holdout" | "existing";

export interface RecallCase {
  corpus: Corpus;
  name: string;
  dir: string;
  exclude: string[];
  truth: TruthEntry[];
  negatives: NegativeEntry[];
}

export type CaseResult = RecallCase & MatchResult;

export interface SummaryRow {
  /** The shape class, or the language when summarised by language. */
  shape: string;
  expected: number;
  found: number;
  ruleMismatch: number;
  missed: number;
  falsePositives: number;
}

export const SHAPES: Readonly<Record<string, string>>;
export const EXISTING_SHAPES: Readonly<Record<string, string>>;
export const NEW_RULE_IDS: readonly string[];
export const RECALL_TARGET: number;
export const RECALL_TARGETS: Readonly<Record<Corpus, number>>;
export const REPOSITORY_CORPORA: readonly Corpus[];

export function languageOf(entry: { file: string; language?: string | undefined }): string;
export function readText(path: string): string;

export function judgedFindings(findings: readonly ScanFinding[]): JudgedFinding[];
export function matchFindings(truth: readonly TruthEntry[], findings: readonly JudgedFinding[]): MatchResult;
export function readTruth(path: string): Truth;
export function validateTruth(dir: string, truth: Truth, knownRules: ReadonlySet<string>): string[];
export function repositoryCases(repoRoot: string, corpus: Corpus): RecallCase[];
export function realShapesCases(repoRoot: string): RecallCase[];
export function holdoutCases(repoRoot: string): RecallCase[];
export function existingCases(repoRoot: string): RecallCase[];
export function scanWithCli(cli: string, testCase: RecallCase): Promise<ScanFinding[]>;
export function judgeCases(
  cli: string,
  cases: readonly RecallCase[],
  options?: { concurrency?: number },
): Promise<CaseResult[]>;
export function summarise(
  results: readonly CaseResult[],
  options?: { by?: "shape" | "language" },
): { rows: SummaryRow[]; total: SummaryRow };
export function recallOf(row: SummaryRow): number;
