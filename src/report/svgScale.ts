/** A linear map from a data domain to pixels, with "nice" tick values for the axis. */
export interface LinearScale {
  domain: [number, number];
  toPixel(value: number): number;
  ticks: number[];
}

/**
 * Builds a linear scale over [lo, hi] widened to nice tick steps (1, 2, 2.5 or 5 times a power of ten,
 * about `targetTicks` of them). A degenerate domain is widened so a single value still draws.
 */
export function linearScale(lo: number, hi: number, pixelLo: number, pixelHi: number, targetTicks = 5): LinearScale {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (lo > hi) [lo, hi] = [hi, lo];
  if (hi - lo < 1e-12) {
    const pad = Math.abs(hi) > 1e-12 ? Math.abs(hi) * 0.5 : 1;
    lo -= lo === 0 ? 0 : pad;
    hi += pad;
  }
  const step = niceStep((hi - lo) / Math.max(1, targetTicks));
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let k = 0; start + k * step <= end + step * 1e-9; k++) ticks.push(roundTick(start + k * step, step));
  const domain: [number, number] = [start, end];
  const span = end - start;
  return {
    domain,
    ticks,
    toPixel: (value) => pixelLo + ((clamp(value, start, end) - start) / span) * (pixelHi - pixelLo),
  };
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * power * (1 + 1e-9)) return m * power;
  return 10 * power;
}

/** Removes floating-point dust (0.30000000000000004) from tick values. */
function roundTick(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(value.toFixed(decimals));
}

function clamp(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, value));
}

/** Formats a coordinate for SVG output with at most one decimal (keeps the report small). */
export function px(value: number): string {
  return String(Math.round(value * 10) / 10);
}
