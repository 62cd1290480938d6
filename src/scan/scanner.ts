/**
 * The contract every non-JS scanner implements. The engine hands each
 * candidate file to every scanner whose `matches` accepts its path.
 */
import type { Finding } from "../core/finding.js";
import type { FileKind } from "../platform/file-types.js";
import type { HostSet } from "../core/urls.js";

export interface FileScanInput {
  /** Repository-relative POSIX path. */
  file: string;
  /** Decoded text (BOM removed). For binary files scanners opt into, the raw bytes decoded as latin1. */
  text: string;
  /** Raw bytes, for formats such as bun.lockb. */
  bytes: Buffer;
  kind: FileKind;
  hosts: HostSet;
  /** Facts gathered from the whole repository (e.g. which packages import the SDK). */
  repo: RepoFacts;
}

export interface RepoFacts {
  /** Repository-relative directories (POSIX, "." for the root) of package.json files whose code imports `comfydeploy`. */
  readonly sdkImportingPackages: ReadonlySet<string>;
  /** Every listed file, for scanners that need to look at neighbours. */
  readonly files: readonly string[];
  /** Absolute path of the scanned root. */
  readonly root: string;
  /**
   * Some code or config file (not docs) holds the V1 API base: then `/run`
   * built on a base held elsewhere (`c.baseURL + "/run"`, `$"{settings.Endpoint}/run"`)
   * is V1 when it carries V1's signature.
   */
  readonly legacyBaseHeld?: boolean;
  /**
   * Where that base is set (the first such file, by path; a V2 API base when
   * no V1 one is held, since the V1 paths are V1 on any ComfyDeploy host):
   * the evidence a request on an unresolved base is reported with.
   */
  readonly legacyBase?: { file: string; line: number };
  /** The non-JS files the prefilter kept: the peers a file's names are resolved across. */
  readonly candidates?: readonly string[];
  /** Reads another listed file's text (cached); undefined when it cannot be read. */
  read(file: string): string | undefined;
}

export interface FileScanner {
  id: string;
  matches(file: string): boolean;
  scan(input: FileScanInput): Finding[];
  /** The scanner reports the legacy host and endpoints itself, so the generic text scan skips the file. */
  readonly coversLegacyUrls?: boolean;
  /** The scanner reads binary files (the engine otherwise skips them). */
  readonly readsBinary?: boolean;
  /**
   * The scanner also reads this JS/TS source (the analyser's files otherwise):
   * code that writes what the scanner looks for, such as a script generating
   * a Dockerfile that pins the node.
   */
  readsJsSource?(file: string, text: string): boolean;
}
