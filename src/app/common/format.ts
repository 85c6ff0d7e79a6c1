/** Number formats used across the views. */

/** Three decimals, the precision the tables promise ("0.417", "-0.083"). */
export function fixed3(value: number | undefined | null): string {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  const text = value.toFixed(3);
  return text === '-0.000' ? '0.000' : text;
}

/** A share or rate as a percentage with one decimal. */
export function percent(value: number | undefined | null): string {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  return `${(value * 100).toFixed(1)} %`;
}

/** A CI as "[lo, hi]". */
export function interval(ci: readonly [number, number] | undefined): string {
  return ci ? `[${fixed3(ci[0])}, ${fixed3(ci[1])}]` : '–';
}

/** Compact counts and costs: 1234567 -> "1 234 567". */
export function count(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // Plain digit grouping: toLocaleString is slow enough to show up in the progress bar's updates.
  const digits = String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return value < 0 ? `-${digits}` : digits;
}

/** A duration in seconds, for "time left". */
export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'estimating…';
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** A value of unknown shape (a step output) as short readable text. */
export function preview(value: unknown, max = 400): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 1) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
