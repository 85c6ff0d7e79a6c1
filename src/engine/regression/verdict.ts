/**
 * The regression gate (docs/ci.md): did the failure rate rise, and did some step's mean blame rise,
 * each judged by its interval. One rule for both ways in: the regression game (`--against`: each
 * changed step's blame for the new failures) and two studies compared (`--compare`: the change of
 * each step's mean Shapley, docs/compare.md).
 */
import { newcombeInterval } from '../stats/newcombe-interval.ts';
import { newcombePairedInterval } from '../stats/newcombe-paired.ts';
import { normalQuantile } from '../stats/normal-quantile.ts';

/** How the share of failing cases moved from the earlier version to this one. */
export interface FailureRateChange {
  /** Cases judged on each side. */
  casesBefore: number;
  casesNow: number;
  failuresBefore: number;
  failuresNow: number;
  /** Paired by case only: cases that fail now and passed before, and the reverse. */
  newFailures: number | null;
  fixed: number | null;
  /** failuresNow / casesNow - failuresBefore / casesBefore. */
  change: number;
  /** Newcombe's interval of the change at 1 - delta (paired by case when both sides judged the same cases). */
  ci: [number, number];
  paired: boolean;
}

/** Each case judged on both sides: the 2x2 table, and Newcombe's paired interval. */
export function pairedFailureRateChange(cases: readonly { failsBefore: boolean; failsNow: boolean }[], delta: number): FailureRateChange {
  let both = 0;
  let newFailures = 0;
  let fixed = 0;
  let neither = 0;
  for (const c of cases) {
    if (c.failsNow && c.failsBefore) both++;
    else if (c.failsNow) newFailures++;
    else if (c.failsBefore) fixed++;
    else neither++;
  }
  const n = cases.length;
  return {
    casesBefore: n,
    casesNow: n,
    failuresBefore: both + fixed,
    failuresNow: both + newFailures,
    newFailures,
    fixed,
    change: n === 0 ? 0 : (newFailures - fixed) / n,
    ci: newcombePairedInterval(both, newFailures, fixed, neither, normalQuantile(1 - delta / 2)),
    paired: true,
  };
}

/** Two studies of different cases: Newcombe's interval for independent proportions. */
export function unpairedFailureRateChange(before: { failures: number; cases: number }, now: { failures: number; cases: number }, delta: number): FailureRateChange {
  const rate = (x: { failures: number; cases: number }) => (x.cases === 0 ? 0 : x.failures / x.cases);
  return {
    casesBefore: before.cases,
    casesNow: now.cases,
    failuresBefore: before.failures,
    failuresNow: now.failures,
    newFailures: null,
    fixed: null,
    change: rate(now) - rate(before),
    ci: newcombeInterval(now.failures, now.cases, before.failures, before.cases, normalQuantile(1 - delta / 2)),
    paired: false,
  };
}

/** One step's rise of mean blame, with its interval (the metric's units). */
export interface BlameRise {
  step: string;
  /** `changed`, `added`, `removed` (the regression game) or absent (two studies compared). */
  change?: string;
  rise: number;
  ci: [number, number];
  /** The regression game: share of the new failures' blame, and of them the share its revert alone repairs. */
  share?: number;
  fixAloneRate?: number;
  /** Two studies compared: the mean Shapley before and now (null where the step is missing). */
  before?: number | null;
  now?: number | null;
}

export interface GateVerdict {
  regression: boolean;
  /** The failure rate rose with its interval above 0. */
  failureRateRose: boolean;
  failureRate: FailureRateChange;
  /** Steps whose rise exceeds the threshold with its interval above it, largest first. */
  risen: BlameRise[];
  /** The step named as the cause: the largest risen one, else (the failure rate rose) the largest positive rise. */
  cause: BlameRise | null;
  threshold: number;
  /** Every step judged, in the order given. */
  steps: BlameRise[];
}

/** The default of --gate-threshold: a rise of a tenth of the metric's unit. */
export const DEFAULT_GATE_THRESHOLD = 0.1;

/**
 * Exit 1 (a regression) when the failure rate rose with its interval above 0, or some step's mean
 * blame rose by more than `threshold` with its interval above `threshold`.
 */
export function gateVerdict(failureRate: FailureRateChange, steps: readonly BlameRise[], threshold: number): GateVerdict {
  const failureRateRose = failureRate.ci[0] > 0;
  const byRise = [...steps].sort((a, b) => b.rise - a.rise);
  const risen = byRise.filter((s) => s.rise > threshold && s.ci[0] > threshold);
  const largest = byRise.find((s) => s.rise > 0) ?? null;
  const cause = risen[0] ?? (failureRateRose ? largest : null);
  return { regression: failureRateRose || risen.length > 0, failureRateRose, failureRate, risen, cause, threshold, steps: [...steps] };
}

const signed = (x: number, digits = 2): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(digits)}`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The failure rate's part of the verdict, e.g. `+12 failing cases [+7.9, +16.3] of 40 (12 new failures, 0 fixed)`. */
export function failureRateText(f: FailureRateChange): string {
  if (f.paired) {
    const n = f.casesNow;
    const count = (x: number) => signed(x * n, 1);
    return `${signed(f.failuresNow - f.failuresBefore, 0)} failing cases [${count(f.ci[0])}, ${count(f.ci[1])}] of ${n} (${plural(f.newFailures ?? 0, 'new failure')}, ${f.fixed ?? 0} fixed)`;
  }
  const rate = (failures: number, cases: number) => (cases === 0 ? '-' : (failures / cases).toFixed(2));
  return `failure rate ${rate(f.failuresBefore, f.casesBefore)} -> ${rate(f.failuresNow, f.casesNow)}, ${signed(f.change)} [${signed(f.ci[0])}, ${signed(f.ci[1])}]`;
}

/** A step's rise as the verdict prints it: `retriever (+0.41 [+0.30, +0.52])`. `name` escapes the step name for where it goes. */
export function riseText(s: BlameRise, name: (text: string) => string): string {
  return `${name(s.step)} (${signed(s.rise)} [${signed(s.ci[0])}, ${signed(s.ci[1])}])`;
}

/**
 * The one verdict line printed first, e.g. `regression: +12 failing cases [+7.9, +16.3] of 40 (12 new
 * failures, 0 fixed); caused by retriever (+0.41 [+0.30, +0.52])`.
 */
export function verdictLine(v: GateVerdict, name: (text: string) => string): string {
  const head = `${v.regression ? 'regression' : 'no regression'}: ${failureRateText(v.failureRate)}`;
  if (v.cause) {
    const others = v.risen.filter((s) => s !== v.cause);
    return `${head}; caused by ${riseText(v.cause, name)}${others.length > 0 ? `, also ${others.map((s) => riseText(s, name)).join(', ')}` : ''}`;
  }
  return `${head}; no step's blame rose by more than ${v.threshold} with its interval above it`;
}

/**
 * What the regression game found, in words: `the "retriever" change causes 71 % of the new
 * failures; reverting it alone fixes 64 %` for each change with some blame, largest first.
 */
export function changeSentences(steps: readonly BlameRise[], name: (text: string) => string): string[] {
  const pct = (x: number) => `${Math.round(100 * x)} %`;
  return [...steps]
    .filter((s) => s.share !== undefined && s.share > 0)
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0))
    .map((s) => `the ${name(s.step)} ${s.change === 'added' ? 'addition' : s.change === 'removed' ? 'removal' : 'change'} causes ${pct(s.share ?? 0)} of the new failures; ${s.change === 'added' ? 'removing' : s.change === 'removed' ? 'restoring' : 'reverting'} it alone fixes ${pct(s.fixAloneRate ?? 0)}`);
}
