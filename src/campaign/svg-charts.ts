/**
 * The dashboard's two charts as inline SVG: no script, no font or image to
 * fetch, readable without colour (every bar and point carries its number).
 */

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export interface Bar {
  label: string;
  /** A second, quieter line under the label. */
  detail?: string;
  value: number;
}

/** Horizontal bars, longest first as given; the scale starts at zero. */
export function barChart(bars: readonly Bar[], options: { title: string; width?: number }): string {
  const width = options.width ?? 1080;
  const labelWidth = 380;
  const rowHeight = 34;
  const top = 8;
  const height = top + bars.length * rowHeight + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const plot = width - labelWidth - 60;
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const length = Math.max(2, Math.round((bar.value / max) * plot));
    return [
      `<g class="bar">`,
      `<title>${escapeXml(`${bar.label}: ${bar.value}`)}</title>`,
      `<text x="0" y="${y + 14}" class="label">${escapeXml(bar.label)}</text>`,
      bar.detail ? `<text x="0" y="${y + 28}" class="detail">${escapeXml(bar.detail)}</text>` : "",
      `<rect x="${labelWidth}" y="${y + 4}" width="${length}" height="${rowHeight - 12}" rx="3"></rect>`,
      `<text x="${labelWidth + length + 6}" y="${y + 20}" class="value">${bar.value}</text>`,
      `</g>`,
    ].join("");
  });
  return svg(width, height, options.title, rows.join(""));
}

export interface Point {
  /** ISO 8601. */
  at: string;
  value: number;
  /** Drawn hollow and named partial: some of its value is carried over, not measured. */
  partial?: string;
}

/** A line over time, with a dot and its number at every point. */
export function lineChart(
  points: readonly Point[],
  options: { title: string; width?: number; height?: number },
): string {
  const width = options.width ?? 1080;
  const height = options.height ?? 260;
  const left = 48;
  const right = 24;
  const top = 20;
  const bottom = 40;
  const times = points.map((p) => Date.parse(p.at));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const span = last - first || 1;
  // Headroom above the highest point for its label.
  const max = Math.max(1, Math.ceil(Math.max(...points.map((p) => p.value)) * 1.15));
  const x = (t: number): number =>
    points.length === 1 ? left + (width - left - right) / 2 : left + ((t - first) / span) * (width - left - right);
  const y = (v: number): number => top + (1 - v / max) * (height - top - bottom);
  const coordinates = points.map((p, i) => [x(times[i]!), y(p.value)] as const);
  const axis = [
    `<line class="axis" x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}"></line>`,
    `<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${y(0)}"></line>`,
    `<text class="tick" x="${left - 6}" y="${y(max) + 4}" text-anchor="end">${max}</text>`,
    `<text class="tick" x="${left - 6}" y="${y(0) + 4}" text-anchor="end">0</text>`,
    `<text class="tick" x="${x(first)}" y="${height - 12}" text-anchor="${points.length === 1 ? "middle" : "start"}">${escapeXml(when(points[times.indexOf(first)]!.at, span))}</text>`,
    points.length > 1
      ? `<text class="tick" x="${x(last)}" y="${height - 12}" text-anchor="end">${escapeXml(when(points[times.lastIndexOf(last)]!.at, span))}</text>`
      : "",
  ].join("");
  const line =
    coordinates.length > 1
      ? `<polyline class="line" points="${coordinates.map(([cx, cy]) => `${round(cx)},${round(cy)}`).join(" ")}"></polyline>`
      : "";
  const dots = coordinates
    .map(
      ([cx, cy], i) =>
        `<g class="point${points[i]!.partial ? " partial" : ""}"><title>${escapeXml(`${day(points[i]!.at)}: ${points[i]!.value}${points[i]!.partial ? ` (partial: ${points[i]!.partial})` : ""}`)}</title>` +
        `<circle cx="${round(cx)}" cy="${round(cy)}" r="4"></circle>` +
        `<text class="value" x="${round(cx)}" y="${round(cy) - 9}" text-anchor="middle">${points[i]!.value}</text></g>`,
    )
    .join("");
  return svg(width, height, options.title, axis + line + dots);
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 ${width} ${height}" width="100%" style="max-width:${width}px" aria-label="${escapeXml(title)}"><title>${escapeXml(title)}</title>${body}</svg>`;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** The date, and the time of day too when the points are less than two days apart. */
function when(iso: string, spanMs: number): string {
  return spanMs < 2 * 24 * 3600 * 1000 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : day(iso);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
