/** Every non-JS scanner, in the order their findings are produced. */
import type { FileScanner } from "../scanner.js";
import { legacyUrlScanner } from "./legacy-urls.js";

export const FILE_SCANNERS: readonly FileScanner[] = [legacyUrlScanner];

/** The generic URL scan, run on files no specialised scanner covers. */
export const GENERIC_URL_SCANNER = legacyUrlScanner;
