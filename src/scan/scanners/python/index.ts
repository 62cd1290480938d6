/** The Python ecosystem: manifests and lockfiles first, then code. */
import type { FileScanner } from "../../scanner.js";
import { pythonCodeScanner } from "./code.js";
import { pythonDependencyScanner } from "./dependencies.js";
import { pythonWheelNameScanner } from "./wheel-names.js";

export const PYTHON_SCANNERS: readonly FileScanner[] = [
  pythonDependencyScanner,
  pythonWheelNameScanner,
  pythonCodeScanner,
];
