/** The Ruby ecosystem: the V1-only gem in manifests, lockfiles and code. */
import type { FileScanner } from "../../scanner.js";
import { rubySdkScanner } from "./sdk.js";

export const RUBY_SCANNERS: readonly FileScanner[] = [rubySdkScanner];
