/**
 * Number and value formatting for the report and the workbench (src/app/common/format.ts), so both
 * print a number the same way: three decimals throughout, as in the terminal tables; a true minus
 * sign (U+2212); thin-space thousands groups; ∞ for unbounded ends; — where there is no value.
 */

const MINUS = '\u2212';

/** A blame value with an explicit sign: +0.417, −0.083, 0.000. */
export function formatSigned(value: number | undefined, decimals = 3): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '+∞' : `${MINUS}∞`;
  const rounded = value.toFixed(decimals);
  if (Number(rounded) === 0) return (0).toFixed(decimals);
  return value > 0 ? `+${rounded}` : `${MINUS}${rounded.slice(1)}`;
}

/** A plain number with fixed decimals (metric values v(S)); − for negatives. */
export function formatNumber(value: number | undefined, decimals = 3): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : `${MINUS}∞`;
  const rounded = value.toFixed(decimals);
  if (Number(rounded) === 0) return (0).toFixed(decimals);
  return value < 0 ? `${MINUS}${rounded.slice(1)}` : rounded;
}

/** A rate in [0, 1] as a percentage with one decimal: 26.0 %. */
export function formatPercent(rate: number | undefined): string {
  if (rate === undefined || !Number.isFinite(rate)) return '—';
  return `${formatNumber(rate * 100, 1)} %`;
}

/**
 * An interval as [lo, hi], each end with a sign by default (the report's blame columns); the
 * workbench, whose tables print blame without a `+`, passes formatNumber.
 */
export function formatInterval(ci: readonly [number, number] | undefined, formatEnd: (value: number) => string = formatSigned): string {
  if (!ci) return '—';
  return `[${formatEnd(ci[0])}, ${formatEnd(ci[1])}]`;
}

/** Whole numbers with thin-space thousands groups (1 000), no locale dependence. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '—';
  const rounded = Math.round(value);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return rounded < 0 ? `${MINUS}${digits}` : digits;
}

/** A count with its noun, singular for one: "1 analysed failure", "2 analysed failures" (`plural` where adding "s" is wrong). */
export function formatCounted(value: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(value)} ${value === 1 ? noun : plural}`;
}

/** An ISO timestamp as "YYYY-MM-DD HH:MM UTC" (no locale or time zone dependence); other text as is. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return iso;
  const text = new Date(time).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} UTC`;
}

/**
 * A step output for the drill-down: strings as they are, everything else as indented JSON
 * (undefined as —). Values that JSON cannot show (functions, cycles) get a short description.
 */
export function formatOutput(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v), 2);
    return json ?? String(value);
  } catch {
    return `[${typeof value} that cannot be shown as JSON]`;
  }
}

/** A study's or case's model usage in one line ("12 requests sent, 30 answered from the cache, 1 234 tokens in, 56 out"). */
export function formatModelUsage(u: { requests: number; cacheHits: number; inputTokens: number; outputTokens: number }): string {
  return `${formatCount(u.requests)} request${u.requests === 1 ? '' : 's'} sent, ${formatCount(u.cacheHits)} answered from the cache, ${formatCount(u.inputTokens)} tokens in, ${formatCount(u.outputTokens)} out`;
}

/** Dollars, with enough digits for a cheap call (a hundredth of a cent shows). */
export function formatCost(cost: number): string {
  return cost >= 1 ? `$${cost.toFixed(2)}` : cost >= 0.01 ? `$${cost.toFixed(3)}` : `$${cost.toFixed(5)}`;
}

/** An axis tick with at most two decimals and no trailing zeros ("0.25", "−0.5", "0"). */
export function formatTick(value: number): string {
  return formatNumber(value, 2).replace(/\.?0+$/, '') || '0';
}
