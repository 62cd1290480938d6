/** Every non-JS scanner, one folder per ecosystem, in the order their findings are produced. */
import type { FileScanner } from "../scanner.js";
import { MACHINE_SCANNERS } from "./machine/index.js";
import { NPM_SCANNERS } from "./npm/index.js";
import { PYTHON_SCANNERS } from "./python/index.js";
import { RUBY_SCANNERS } from "./ruby/index.js";
import { GENERIC_URL_SCANNER, TEXT_SCANNERS } from "./text/index.js";

export const FILE_SCANNERS: readonly FileScanner[] = [
  ...TEXT_SCANNERS,
  ...NPM_SCANNERS,
  ...MACHINE_SCANNERS,
  ...PYTHON_SCANNERS,
  ...RUBY_SCANNERS,
];

export { GENERIC_URL_SCANNER };
