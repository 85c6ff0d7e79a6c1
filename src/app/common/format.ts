/**
 * Number formats used across the views. The numbers themselves are printed by the report's pure
 * module (src/report/format.ts), so the workbench and an exported report show a value the same
 * way: U+2212 minus, thin-space thousands groups, ∞, and — where there is no value. The workbench
 * prints blame without an explicit `+` (the report's signed blame columns add one).
 */
import { formatCount, formatCounted, formatInterval, formatNumber, formatPercent, formatTick } from '../../report/format.ts';

/** Three decimals, the precision the tables promise ("0.417", "−0.083"). */
export function fixed3(value: number | undefined | null): string {
  return formatNumber(value ?? undefined, 3);
}

/** A share or rate as a percentage with one decimal ("26.0 %"). */
export function percent(value: number | undefined | null): string {
  return formatPercent(value ?? undefined);
}

/**
 * A rate as a percentage, with the page's minus: percentOf(0.26) "26.0 %", percentOf(-0.35, 0, '%')
 * "−35%". Every percentage a component prints goes through here (or percent), never toFixed.
 */
export function percentOf(rate: number, decimals = 1, unit = ' %'): string {
  return Number.isFinite(rate) ? `${formatNumber(rate * 100, decimals)}${unit}` : '—';
}

/** A whole number with the page's minus ("−5", "12"), for rounded values that may be negative. */
export function whole(value: number): string {
  return formatNumber(value, 0);
}

/** A small probability: three decimals, or one significant digit with a power of ten below 0.01 ("3.0e−4"). */
export function small(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 0.01 || value === 0) return formatNumber(value, 3);
  return value.toExponential(1).replace(/-/g, '\u2212');
}

/** A CI as "[lo, hi]" with three decimals, unsigned like the values beside it. */
export function interval(ci: readonly [number, number] | undefined): string {
  return formatInterval(ci, (end) => formatNumber(end, 3));
}

/** An axis tick with at most two decimals and no trailing zeros ("0.25", "−0.5", "0"). */
export function tickLabel(value: number): string {
  return formatTick(value);
}

/** Compact counts and costs: 1234567 -> "1 234 567" (thin spaces). */
export function count(value: number): string {
  return formatCount(value);
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

/** A count with its noun, singular for one ("1 analysed failure", "2 analysed failures"); `plural` where adding "s" is wrong. */
export function counted(value: number, noun: string, plural = `${noun}s`): string {
  return formatCounted(value, noun, plural);
}
