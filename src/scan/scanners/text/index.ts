/** Every other text file: the generic scan for the legacy host and endpoints, in any language, config or docs. */
import type { FileScanner } from "../../scanner.js";
import { legacyUrlScanner } from "./legacy-urls.js";

/** Runs on the files no specialised scanner covers the legacy URLs of. */
export const GENERIC_URL_SCANNER: FileScanner = legacyUrlScanner;

export const TEXT_SCANNERS: readonly FileScanner[] = [GENERIC_URL_SCANNER];
