/** Bounded concurrency: the scan's file reads, the campaign's repositories. */

/** Runs `fn` over items with at most `limit` in flight; results keep the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** `mapLimit` for work that returns nothing. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  await mapLimit(items, limit, fn);
}

/** Serialises work per key (e.g. two campaign entries sharing one cached clone); other keys run freely. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async with<R>(key: string, fn: () => Promise<R>): Promise<R> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((done) => (release = done));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
