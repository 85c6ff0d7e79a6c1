/**
 * Trends (docs/trends.md): which step causes the failures in each period (day, week, month, pipeline
 * version or tag value), and whether that changes. One function over study digests, so the page's
 * Trends view, its report section and `agentblame trend` print the same numbers (as Compare does).
 *
 * A period pools the analysed failures of all its studies, as if they were one batch: per step the
 * share of the failure blame (Σφ / Σ(v(all) − v(∅)), the batch's `share`) with the batch bound's
 * interval, and the fix-alone rate with its Wilson interval. A change between two periods has
 * Welch's interval on the per-case values (Newcombe's for the fix-alone rate) and is marked when
 * that interval excludes 0.
 */
import { pooledMeanInterval, type BatchOptions } from './batch.ts';
import { analysedFailures, resolvesAlone } from './case-result.ts';
import { ownValue } from './named-record.ts';
import { differenceInterval } from './stats/difference-interval.ts';
import { newcombeInterval } from './stats/newcombe-interval.ts';
import { normalQuantile } from './stats/normal-quantile.ts';
import { wilsonInterval } from './stats/wilson-interval.ts';
import type { BatchBound, CaseResult } from './types.ts';
import { tagValue } from './tags.ts';

/** The version of the digest's shape: a cache holding another version is recomputed. */
export const TREND_DIGEST_VERSION = 1;

/**
 * What trends read of one study: its facts and, per analysed failure, each step's Shapley value
 * and the repairable mass v(all) − v(∅), plus per step how many of them its fix alone resolves.
 * Computed from the study's case results (never read from a file: `trendDigest`).
 */
export interface TrendDigest {
  digestVersion: typeof TREND_DIGEST_VERSION;
  id: string;
  name: string;
  /** ISO date-time: when the study's cases were recorded. */
  recordedAt: string;
  pipelineVersion: string;
  tags: string[];
  /** Failing cases without error (analysed or not: a stopped batch analyses fewer). */
  failures: number;
  /** The steps of its analysed failures, in first-seen order. */
  steps: string[];
  /** One entry per analysed failure: v(all) − v(∅). */
  mass: number[];
  /** shapley[i][k]: step i's value in analysed failure k (0 where the case lacks the step). */
  shapley: number[][];
  /** resolved[i]: analysed failures that fixing step i alone brings to the threshold. */
  resolved: number[];
  /** The metric's range, for the Bernstein and betting bounds (absent: [0, 1]). */
  range?: [number, number];
  /** A shard's study and place (`--shard i/k`): the shards of one study are one study (`joinShardDigests`). */
  shard?: { fingerprint: string; index: number; count: number };
}

export interface TrendStudyFacts {
  id: string;
  name: string;
  recordedAt: string;
  pipelineVersion: string;
  tags: readonly string[];
  range?: readonly [number, number];
  /** A case fails below this (default 1); for results saved without `resolvedAlone`. */
  threshold?: number;
  shard?: TrendDigest['shard'];
}

/** A study's digest from its case results. */
export function trendDigest(facts: TrendStudyFacts, results: readonly CaseResult[]): TrendDigest {
  const analysed = analysedFailures(results);
  const steps: string[] = [];
  const known = new Set<string>();
  for (const r of analysed) for (const p of r.players) if (!known.has(p)) (known.add(p), steps.push(p));
  const threshold = facts.threshold ?? 1;
  return {
    digestVersion: TREND_DIGEST_VERSION,
    id: facts.id,
    name: facts.name,
    recordedAt: facts.recordedAt,
    pipelineVersion: facts.pipelineVersion,
    tags: [...facts.tags],
    failures: results.filter((r) => r.failed && r.error === undefined).length,
    steps,
    mass: analysed.map((r) => r.vAll - r.vEmpty),
    shapley: steps.map((s) => analysed.map((r) => ownValue(r.shapley, s) ?? 0)),
    resolved: steps.map((s) => analysed.filter((r) => r.players.includes(s) && resolvesAlone(r, s, threshold)).length),
    ...(facts.range && { range: [facts.range[0], facts.range[1]] }),
    ...(facts.shard && { shard: { ...facts.shard } }),
  };
}

/**
 * The shards of one study (same fingerprint) as one digest, their failures in shard order,
 * recorded when the earliest shard was, named by the first shard; other digests as they are. A
 * shard given twice counts once (the first), so a folder holding a copy does not double it.
 */
export function joinShardDigests(digests: readonly TrendDigest[]): TrendDigest[] {
  const out: TrendDigest[] = [];
  const studies = new Map<string, Map<number, TrendDigest>>();
  for (const d of digests) {
    if (!d.shard) {
      out.push(d);
      continue;
    }
    let parts = studies.get(d.shard.fingerprint);
    if (!parts) {
      parts = new Map();
      studies.set(d.shard.fingerprint, parts);
    }
    if (!parts.has(d.shard.index)) parts.set(d.shard.index, d);
  }
  for (const [fingerprint, parts] of studies) {
    const shards = [...parts.values()].sort((a, b) => a.shard!.index - b.shard!.index);
    const steps: string[] = [];
    for (const d of shards) for (const s of d.steps) if (!steps.includes(s)) steps.push(s);
    const first = shards[0];
    const earliest = shards.reduce((a, b) => (Date.parse(b.recordedAt) < Date.parse(a.recordedAt) ? b : a));
    out.push({
      ...first,
      recordedAt: earliest.recordedAt,
      failures: shards.reduce((n, d) => n + d.failures, 0),
      steps,
      mass: shards.flatMap((d) => d.mass),
      shapley: steps.map((s) => shards.flatMap((d) => (d.steps.includes(s) ? d.shapley[d.steps.indexOf(s)] : d.mass.map(() => 0)))),
      resolved: steps.map((s) => shards.reduce((n, d) => n + (d.steps.includes(s) ? d.resolved[d.steps.indexOf(s)] : 0), 0)),
      shard: { fingerprint, index: 0, count: first.shard!.count },
    });
  }
  return out;
}

export type TrendGrouping = { by: 'day' | 'week' | 'month' | 'version' } | { by: 'tag'; key: string };

export const TREND_GROUPINGS = ['day', 'week', 'month', 'version', 'tag:KEY'] as const;

/** `week`, `tag:model`, ... as a grouping, or a message saying what is accepted. */
export function parseTrendGrouping(text: string): TrendGrouping | { problem: string } {
  if (text === 'day' || text === 'week' || text === 'month' || text === 'version') return { by: text };
  if (text.startsWith('tag:') && text.length > 4) return { by: 'tag', key: text.slice(4) };
  return { problem: `expected one of ${TREND_GROUPINGS.join(', ')}, got ${JSON.stringify(text)}` };
}

export function groupingName(grouping: TrendGrouping): string {
  return grouping.by === 'tag' ? `tag:${grouping.key}` : grouping.by;
}

export interface TrendOptions {
  grouping: TrendGrouping;
  /** Intervals at 1 − delta (default 0.05). */
  delta?: number;
  /** The batch bound of the share's interval (default normal). */
  bound?: BatchBound;
}

/** One period: its studies pooled. */
export interface TrendPeriod {
  key: string;
  label: string;
  /** Earliest and latest recordedAt of its studies. */
  first: string;
  last: string;
  /** Study ids, in recording order. */
  studies: string[];
  /** Failing cases without error, and those analysed. */
  failures: number;
  analyzed: number;
}

/** A step in one period. */
export interface TrendPoint {
  /** Analysed failures in the period (the step's values pooled over them). */
  analyzed: number;
  meanShapley: number;
  /** The step's share of the period's failure blame, Σφ / Σ(v(all) − v(∅)). */
  share: number;
  ci: [number, number];
  fixAloneRate: number;
  fixAloneCi: [number, number];
}

/** A step from one period to another (later minus earlier). */
export interface TrendChange {
  from: string;
  to: string;
  shareChange: number;
  ci: [number, number];
  /** The change's interval excludes 0. */
  marked: boolean;
  fixAloneChange: number;
  fixAloneCi: [number, number];
  fixAloneMarked: boolean;
}

export interface StepTrend {
  step: string;
  /** Aligned with `periods`; null where no analysed failure of the period has the step. */
  points: (TrendPoint | null)[];
  /** From each period with a point to the next one with a point. */
  changes: TrendChange[];
  /** From its first period with a point to its last (null with fewer than two). */
  drift: TrendChange | null;
}

export interface Trends {
  grouping: string;
  delta: number;
  bound: BatchBound;
  periods: TrendPeriod[];
  /** Steps in first-seen order (studies in recording order). */
  steps: StepTrend[];
  /** Steps whose drift is marked. */
  drifting: string[];
  /** The last period's most blamed step in a sentence, or null when no period has an analysed failure. */
  headline: string | null;
}

const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Monday (UTC) of the week holding `ms`. */
function mondayOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
  return day - weekday * DAY_MS;
}

function periodOf(d: TrendDigest, grouping: TrendGrouping): { key: string; label: string } {
  const ms = Date.parse(d.recordedAt);
  switch (grouping.by) {
    case 'day':
      return { key: isoDay(ms), label: isoDay(ms) };
    case 'week': {
      const monday = isoDay(mondayOf(ms));
      return { key: monday, label: `week of ${monday}` };
    }
    case 'month': {
      const month = new Date(ms).toISOString().slice(0, 7);
      return { key: month, label: month };
    }
    case 'version':
      return { key: `v:${d.pipelineVersion}`, label: `version ${d.pipelineVersion}` };
    case 'tag': {
      const value = tagValue(d.tags, grouping.key);
      return value === undefined ? { key: 'none', label: `no ${grouping.key} tag` } : { key: `t:${value}`, label: value === '' ? grouping.key : `${grouping.key}=${value}` };
    }
  }
}

/** The key of the calendar period right before `key`, to word "the week before" (null when not calendar). */
function previousKey(key: string, by: TrendGrouping['by']): string | null {
  if (by === 'day') return isoDay(Date.parse(`${key}T00:00:00Z`) - DAY_MS);
  if (by === 'week') return isoDay(Date.parse(`${key}T00:00:00Z`) - 7 * DAY_MS);
  if (by === 'month') {
    const [y, m] = key.split('-').map(Number);
    return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  }
  return null;
}

const BEFORE: Record<string, string> = { day: 'the day before', week: 'the week before', month: 'the month before' };

/** Pooled columns of one period, kept while the trend is computed. */
interface Pool {
  period: TrendPeriod;
  mass: number;
  /** Per step: values over the period's analysed failures (0 where a study lacks the step), and resolved counts. */
  values: Map<string, number[]>;
  resolved: Map<string, number>;
  /** Whether any study of the period has the step. */
  has: Set<string>;
}

const percent = (x: number): string => `${Math.round(x * 100)} %`;
const percentPair = (ci: readonly [number, number]): string => `[${Math.round(ci[0] * 100)}, ${Math.round(ci[1] * 100)}]`;

function changeBetween(a: Pool, b: Pool, pa: TrendPoint, pb: TrendPoint, step: string, delta: number): TrendChange {
  const z = normalQuantile(1 - delta / 2);
  const scaled = (pool: Pool, p: TrendPoint) => {
    const meanMass = pool.mass / p.analyzed;
    return pool.values.get(step)!.map((x) => (meanMass !== 0 ? x / meanMass : 0));
  };
  const shareChange = pb.share - pa.share;
  const ci = differenceInterval(scaled(a, pa), scaled(b, pb), shareChange, false, delta) ?? [pb.ci[0] - pa.ci[1], pb.ci[1] - pa.ci[0]];
  const fixAloneCi = newcombeInterval(b.resolved.get(step)!, pb.analyzed, a.resolved.get(step)!, pa.analyzed, z);
  const fixAloneChange = pb.fixAloneRate - pa.fixAloneRate;
  return {
    from: a.period.key,
    to: b.period.key,
    shareChange,
    ci,
    marked: ci[0] > 0 || ci[1] < 0,
    fixAloneChange,
    fixAloneCi,
    fixAloneMarked: fixAloneCi[0] > 0 || fixAloneCi[1] < 0,
  };
}

/**
 * Trends over study digests: periods in time order (by the earliest recording among their studies
 * for versions and tag values), per step its point in each period, the changes from period to
 * period and from its first period to its last, and the headline.
 */
export function computeTrends(digests: readonly TrendDigest[], options: TrendOptions): Trends {
  const delta = options.delta ?? 0.05;
  const bound = options.bound ?? 'normal';
  const z = normalQuantile(1 - delta / 2);
  const ordered = [...digests].sort((x, y) => Date.parse(x.recordedAt) - Date.parse(y.recordedAt) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const stepOrder: string[] = [];
  const knownSteps = new Set<string>();
  for (const d of ordered) for (const s of d.steps) if (!knownSteps.has(s)) (knownSteps.add(s), stepOrder.push(s));
  const range = ordered.find((d) => d.range)?.range;

  const pools = new Map<string, Pool>();
  for (const d of ordered) {
    const { key, label } = periodOf(d, options.grouping);
    let pool = pools.get(key);
    if (!pool) {
      pool = { period: { key, label, first: d.recordedAt, last: d.recordedAt, studies: [], failures: 0, analyzed: 0 }, mass: 0, values: new Map(), resolved: new Map(), has: new Set() };
      pools.set(key, pool);
    }
    const period = pool.period;
    const n = d.mass.length;
    // Steps met for the first time in this period start with zeros for the failures pooled before.
    for (const s of d.steps) {
      if (!pool.values.has(s)) pool.values.set(s, new Array<number>(period.analyzed).fill(0));
      pool.has.add(s);
    }
    for (const [s, column] of pool.values) {
      const i = d.steps.indexOf(s);
      if (i < 0) for (let k = 0; k < n; k++) column.push(0);
      else for (const x of d.shapley[i]) column.push(x);
      pool.resolved.set(s, (pool.resolved.get(s) ?? 0) + (i < 0 ? 0 : d.resolved[i]));
    }
    for (const x of d.mass) pool.mass += x;
    period.studies.push(d.id);
    period.failures += d.failures;
    period.analyzed += n;
    period.last = d.recordedAt;
  }
  const ordering = [...pools.values()];
  if (options.grouping.by === 'day' || options.grouping.by === 'week' || options.grouping.by === 'month') ordering.sort((x, y) => (x.period.key < y.period.key ? -1 : x.period.key > y.period.key ? 1 : 0));

  const steps: StepTrend[] = stepOrder.map((step) => {
    const points = ordering.map((pool): TrendPoint | null => {
      const m = pool.period.analyzed;
      if (!pool.has.has(step) || m === 0) return null;
      const values = pool.values.get(step)!;
      let sum = 0;
      for (const x of values) sum += x;
      const mean = sum / m;
      const meanMass = pool.mass / m;
      const batchOpts: BatchOptions = { delta, bound, ...(range && { range }) };
      const mci = pooledMeanInterval(values, pool.has.size, batchOpts);
      const resolved = pool.resolved.get(step)!;
      return {
        analyzed: m,
        meanShapley: mean,
        share: meanMass !== 0 ? mean / meanMass : 0,
        ci: meanMass !== 0 ? [mci[0] / meanMass, mci[1] / meanMass] : [0, 0],
        fixAloneRate: resolved / m,
        fixAloneCi: wilsonInterval(resolved, m, z),
      };
    });
    const present = points.flatMap((p, k) => (p ? [k] : []));
    const changes = present.slice(1).map((k, j) => changeBetween(ordering[present[j]], ordering[k], points[present[j]]!, points[k]!, step, delta));
    const drift = present.length < 2 ? null : changeBetween(ordering[present[0]], ordering[present[present.length - 1]], points[present[0]]!, points[present[present.length - 1]]!, step, delta);
    return { step, points, changes, drift };
  });

  return {
    grouping: groupingName(options.grouping),
    delta,
    bound,
    periods: ordering.map((p) => p.period),
    steps,
    drifting: steps.filter((s) => s.drift?.marked).map((s) => s.step),
    headline: headlineOf(ordering.map((p) => p.period), steps, options.grouping),
  };
}

/** Shares closer than this (half a tenth of a percent) are a tie at the top of the headline. */
const SHARE_TIE = 5e-4;

/**
 * "week of 2026-03-09: retriever caused 37 % [31, 43] of 120 failures; fixing it alone resolves
 * 26 %; down from 48 % the week before" for the last period's most blamed step.
 */
function headlineOf(periods: readonly TrendPeriod[], steps: readonly StepTrend[], grouping: TrendGrouping): string | null {
  const last = periods.length - 1;
  if (last < 0) return null;
  let top: StepTrend | null = null;
  for (const s of steps) if (s.points[last] && (!top || s.points[last]!.share > top.points[last]!.share)) top = s;
  if (!top) return null;
  const p = top.points[last]!;
  const period = periods[last];
  // Steps whose share prints the same as the top's are named together, as the batch headline does
  // (the refund demo's planner and retriever, 42 % each): naming the first alone reads as a ranking.
  const tied = steps.filter((s) => s.points[last] && Math.abs(s.points[last]!.share - p.share) < SHARE_TIE).map((s) => s.step);
  const who = tied.length > 1 ? `${tied.slice(0, -1).join(', ')} and ${tied[tied.length - 1]} caused ${percent(p.share)} each` : `${top.step} caused ${percent(p.share)} ${percentPair(p.ci)}`;
  let text = `${period.label}: ${who} of ${p.analyzed} failure${p.analyzed === 1 ? '' : 's'}; fixing ${tied.length > 1 ? top.step : 'it'} alone resolves ${percent(p.fixAloneRate)}`;
  const change = top.changes.at(-1);
  if (change && change.to === period.key) {
    const earlier = periods.find((x) => x.key === change.from)!;
    const before = previousKey(period.key, grouping.by) === earlier.key ? BEFORE[grouping.by] : `in ${earlier.label}`;
    const then = percent(p.share - change.shareChange);
    const subject = tied.length > 1 ? `${top.step} ` : '';
    text += change.marked ? `; ${subject}${change.shareChange < 0 ? 'down' : 'up'} from ${then} ${before}` : `; ${subject}${then} ${before} (no clear change)`;
  }
  return text;
}
