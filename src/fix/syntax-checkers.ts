/**
 * `fix --verify` for the languages fix edits as text: each language's own
 * syntax checker, where it is installed, on the files fix changed. Only
 * checkers that parse without running the file's code (`php -l`, `gofmt -e`,
 * `ruby -c`, `bash -n`); compilers that need the project's dependencies
 * (javac, kotlinc, dotnet, dart) are left to the project's own build.
 */
import { posix } from "node:path";

export interface SyntaxChecker {
  /** The language, for the report. */
  language: string;
  extensions: readonly string[];
  program: string;
  args: (file: string) => string[];
}

export const SYNTAX_CHECKERS: readonly SyntaxChecker[] = [
  { language: "PHP", extensions: [".php"], program: "php", args: (file) => ["-n", "-l", file] },
  { language: "Go", extensions: [".go"], program: "gofmt", args: (file) => ["-l", "-e", file] },
  { language: "Ruby", extensions: [".rb"], program: "ruby", args: (file) => ["-c", file] },
  { language: "shell", extensions: [".sh", ".bash"], program: "bash", args: (file) => ["-n", file] },
];

export interface CheckerRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  spawnError: boolean;
}

export interface SyntaxError {
  file: string;
  line: number;
  message: string;
}

export interface SyntaxCheckResult {
  command: string;
  status: "passed" | "failed" | "not-run";
  reason?: string;
  errors: SyntaxError[];
}

/** Runs each language's checker over its changed files, once per file; one result per language with files. */
export async function checkSyntax(
  files: readonly string[],
  run: (program: string, args: readonly string[]) => Promise<CheckerRun>,
): Promise<SyntaxCheckResult[]> {
  const results: SyntaxCheckResult[] = [];
  for (const checker of SYNTAX_CHECKERS) {
    const mine = files.filter((file) => checker.extensions.includes(posix.extname(file).toLowerCase()));
    if (mine.length === 0) continue;
    const command = mine.map((file) => [checker.program, ...checker.args(file)].join(" ")).join("; ");
    const errors: SyntaxError[] = [];
    let notRun: string | undefined;
    for (const file of mine) {
      const outcome = await run(checker.program, checker.args(file));
      if (outcome.spawnError) {
        notRun = `${checker.program} is not installed: the ${checker.language} files fix changed were not checked`;
        break;
      }
      if (outcome.timedOut) {
        notRun = `${checker.program} did not finish`;
        break;
      }
      if (outcome.code === 0 && !(checker.program === "gofmt" && outcome.stderr.trim() !== "")) continue;
      errors.push({ file, ...firstError(`${outcome.stderr}\n${outcome.stdout}`) });
    }
    if (notRun) results.push({ command, status: "not-run", reason: notRun, errors: [] });
    else if (errors.length > 0)
      results.push({
        command,
        status: "failed",
        reason: `${errors.length} file${errors.length === 1 ? " does" : "s do"} not parse`,
        errors,
      });
    else results.push({ command, status: "passed", errors: [] });
  }
  return results;
}

/** The first line the checker names (`on line 3`, `line 3:`, `file:3:`) and its message. */
function firstError(output: string): { line: number; message: string } {
  const text =
    output.split("\n").find((l) => /error/i.test(l)) ??
    output.split("\n").find((l) => l.trim() !== "") ??
    "the file does not parse";
  const line = /\bline (\d+)|:(\d+)(?::\d+)?:/.exec(text);
  return { line: Number(line?.[1] ?? line?.[2] ?? 1), message: text.trim() };
}
