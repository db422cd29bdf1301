/** Chart.js-style data: one label per point, one series per dataset. */
export interface ChartData {
  labels: string[];
  datasets: { label: string; data: number[] }[];
}

/** The first instant (UTC) of the month `monthsBack` months before the month of `now`. */
export function startOfMonthUtc(now: Date, monthsBack = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
}

/** Labels `YYYY-MM` (UTC) of the `count` months ending with the month of `now`, oldest first. */
export function monthLabels(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    startOfMonthUtc(now, count - 1 - index)
      .toISOString()
      .slice(0, 7),
  );
}

/** One dataset over `labels`, taking each month's figure from `counts` (0 when absent). */
export function monthlyChart(label: string, labels: string[], counts: Map<string, number>): ChartData {
  return { labels, datasets: [{ label, data: labels.map((month) => counts.get(month) ?? 0) }] };
}
