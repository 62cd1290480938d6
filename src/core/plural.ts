/** Counts with their noun: "1 warning", "2 warnings", "1 info" (an uncountable noun passes itself as the plural). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "2 errors, 1 warning, 0 info": the severity counts every report prints. */
export function severityCounts(counts: { error: number; warning: number; info: number }): string {
  return `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${plural(counts.info, "info", "info")}`;
}
