/**
 * Answers of the GitHub compare API kept on disk, so a second `scan --online`
 * asks nothing it already knows. Where a commit stands relative to v2.1.0
 * never changes; "not found" can (a fork's commit may be pushed upstream),
 * so it expires after a day.
 */
import { mkdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";

/** A compare `status` (ahead, behind, identical, diverged) or "not-found" for a 404. */
export type CachedStatus = string;

interface CacheEntry {
  status: CachedStatus;
  /** Milliseconds since the epoch. */
  checkedAt: number;
}

interface CacheFile {
  version: 1;
  entries: Record<string, CacheEntry>;
}

const NOT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;

export function defaultCompareCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.trim() !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "comfydeploy-migrate", "github-compare.json");
}

export class CompareCache {
  private entries: Record<string, CacheEntry> | undefined;
  private dirty = false;

  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<CachedStatus | undefined> {
    const entry = (await this.load())[key];
    if (!entry) return undefined;
    if (entry.status === "not-found" && this.now() - entry.checkedAt > NOT_FOUND_TTL_MS) return undefined;
    return entry.status;
  }

  async set(key: string, status: CachedStatus): Promise<void> {
    (await this.load())[key] = { status, checkedAt: this.now() };
    this.dirty = true;
  }

  /** Writes new answers; a cache that cannot be written only costs a later request. */
  async save(): Promise<void> {
    if (!this.dirty || !this.entries) return;
    const content: CacheFile = { version: 1, entries: this.entries };
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, `${JSON.stringify(content, null, 2)}\n`);
      this.dirty = false;
    } catch {
      // Read-only home or similar: answers are simply not kept.
    }
  }

  private async load(): Promise<Record<string, CacheEntry>> {
    if (this.entries) return this.entries;
    try {
      const parsed = JSON.parse(await readFile(this.file, "utf8")) as Partial<CacheFile>;
      this.entries = parsed.version === 1 && parsed.entries && typeof parsed.entries === "object" ? parsed.entries : {};
    } catch {
      this.entries = {};
    }
    return this.entries;
  }
}
