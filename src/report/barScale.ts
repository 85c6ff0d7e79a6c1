/**
 * The value axis of the batch bars: a domain that always holds 0 and every value and interval end,
 * widened to "nice" tick steps (1, 2 or 5 times a power of ten) so the ticks read cleanly.
 */
export interface BarScale {
  min: number;
  max: number;
  ticks: number[];
  /** Position of a value as a fraction of the axis width, 0 at min and 1 at max. */
  at(value: number): number;
}

export function barScale(values: readonly number[], tickTarget = 5): BarScale {
  const finite = values.filter((v) => Number.isFinite(v));
  let min = Math.min(0, ...finite);
  let max = Math.max(0, ...finite);
  if (max - min < 1e-9) max = min + 1;
  const rough = (max - min) / tickTarget;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  min = Math.floor(min / step + 1e-9) * step;
  max = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Math.abs(t) < step / 1e6 ? 0 : Number(t.toPrecision(12)));
  return { min, max, ticks, at: (value) => (value - min) / (max - min) };
}
