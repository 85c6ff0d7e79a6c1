/**
 * A stored result's numbers, checked against what the method guarantees, since a file can hold
 * any finite number in any field. Every estimator of the registry is exactly efficient (the
 * values of a case add up to v(all) - v(empty): Shapley 1953; each sampled order telescopes), a
 * value of the metric lies in its range, and a marginal v(S + i) - v(S) (so a fix-alone or
 * leave-one-out gain, an exact Shapley value or a mean of sampled marginals) lies within the
 * range's width. KernelSHAP's samples have a wider bound (Covert & Lee 2021; see kernel.ts).
 */
import type { CaseResult } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath } from '../formats/json-path.ts';

/** Rounding a sum of doubles may leave; relative to the metric's width (or the values' size). */
const EFFICIENCY_TOLERANCE = 1e-9;

const show = (x: number): string => String(Number(x.toPrecision(12)));

function harmonic(n: number): number {
  let h = 0;
  for (let k = 1; k <= n; k++) h += 1 / k;
  return h;
}

/**
 * Throws a FormatError naming the field when a result's values do not add up or lie outside the
 * metric's range. `range` is the study's when known (the command's study mark, a game's table);
 * without it only the sum is checked. Results with an error carry no values and pass.
 */
export function checkResultNumbers(result: CaseResult, path: string, range?: readonly [number, number]): void {
  if (result.error !== undefined) return;
  const span = range ? range[1] - range[0] : undefined;
  const slack = EFFICIENCY_TOLERANCE * Math.max(1, span ?? Math.max(Math.abs(result.vAll), Math.abs(result.vEmpty)));
  const inRange = (value: number, field: string) => {
    if (range && (value < range[0] - slack || value > range[1] + slack)) {
      throw new FormatError(field, `${show(value)} is outside the metric's range [${range[0]}, ${range[1]}]`);
    }
  };
  inRange(result.vEmpty, childPath(path, 'vEmpty'));
  inRange(result.vAll, childPath(path, 'vAll'));
  result.coalitions?.forEach((c, k) => inRange(c.value, `${childPath(path, 'coalitions')}[${k}].value`));
  if (!result.shapley) return;
  const gain = result.vAll - result.vEmpty;
  const values = Object.values(result.shapley);
  const sum = values.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - gain) > slack * Math.max(1, values.length)) {
    throw new FormatError(childPath(path, 'shapley'), `the values add up to ${show(sum)}, not v(all) - v(none) = ${show(gain)} (a case's Shapley values always do)`);
  }
  if (span === undefined) return;
  const within = (record: Record<string, number> | undefined, field: string, centre: number, width: number) => {
    for (const [step, value] of Object.entries(record ?? {})) {
      if (Math.abs(value - centre) > width + slack) {
        throw new FormatError(childPath(childPath(path, field), step), `${show(value)} is outside what the metric's range [${range![0]}, ${range![1]}] allows (${show(centre - width)} to ${show(centre + width)})`);
      }
    }
  };
  within(result.fixAlone, 'fixAlone', 0, span);
  within(result.leaveOneOut, 'leaveOneOut', 0, span);
  const n = result.players.length;
  if (result.estimator === 'kernel' && result.method === 'mc' && n >= 2) within(result.shapley, 'shapley', gain / n, (harmonic(n - 1) * (n - 1) * 2 * span) / n);
  else within(result.shapley, 'shapley', 0, span);
}
