/** Every non-JS scanner, in the order their findings are produced. */
import type { FileScanner } from "../scanner.js";
import { legacyUrlScanner } from "./legacy-urls.js";
import { NPM_DEPENDENCY_SCANNERS } from "./npm-scanners.js";
import { nodePinScanner } from "./node-pins.js";
import { pythonCodeScanner } from "./python-code.js";
import { pythonDependencyScanner } from "./python-dependencies.js";
import { rubySdkScanner } from "./ruby-sdk.js";
import { workerImageScanner } from "./worker-image.js";

export const FILE_SCANNERS: readonly FileScanner[] = [legacyUrlScanner, ...NPM_DEPENDENCY_SCANNERS, nodePinScanner, workerImageScanner, pythonDependencyScanner, pythonCodeScanner, rubySdkScanner];

/** The generic URL scan, run on files no specialised scanner covers. */
export const GENERIC_URL_SCANNER = legacyUrlScanner;
