/**
 * Shell scripts that source a candidate: `bin/nightly.sh` may name nothing
 * V1 itself (`curl -X POST "${COMFY_BASE}${RUN_PATH}"`) while the `lib.sh`
 * it sources sets both variables. The prefilter keeps `lib.sh`; this pass
 * adds the scripts that source it, as the importer follow-up adds the JS
 * files that import a client module. Only shell scripts are read for it.
 */
import { posix } from "node:path";
import { sourcedFiles, sourcesFiles } from "../lang/shell/sourced-files.js";
import { decode } from "./file-reading.js";
import { isShellScript } from "./scanners/text/program-bases.js";
import { scannersFor, type TextCandidate } from "./text-pass.js";

const SHELL_EXTENSION = /\.(?:sh|bash|zsh|ksh)$/i;
/** Scripts without an extension are read only where scripts live. */
const SCRIPT_DIR = /(?:^|\/)(?:bin|scripts?|tools|ops|cron|hooks)$/;

/** The scripts among `files` that source one of the shell candidates, as candidates of their own. */
export function scriptsSourcingCandidates(
  candidates: readonly TextCandidate[],
  files: readonly string[],
  allFiles: readonly string[],
  read: (file: string) => string | undefined,
): TextCandidate[] {
  const libraries = new Set(
    candidates.filter((c) => isShellScript(c.file, decode(c.bytes).slice(0, 200))).map((c) => c.file),
  );
  if (libraries.size === 0) return [];
  const taken = new Set(candidates.map((c) => c.file));
  const out: TextCandidate[] = [];
  for (const file of files) {
    if (taken.has(file)) continue;
    const extensionless = posix.extname(file) === "";
    if (!SHELL_EXTENSION.test(file) && !(extensionless && SCRIPT_DIR.test(posix.dirname(file)))) continue;
    const text = read(file);
    if (text === undefined || !isShellScript(file, text) || !sourcesFiles(text)) continue;
    if (sourcedFiles(file, text, allFiles).some((sourced) => libraries.has(sourced)))
      out.push({ file, bytes: Buffer.from(text, "utf8"), scanners: scannersFor(file) });
  }
  return out;
}
