/**
 * Trends at scale (docs/trends.md): a year of daily studies (365 sessions of 500 analysed
 * failures each, three steps, every coalition's value kept as an exact analysis keeps them).
 *
 * - the command, `agentblame trend DIR` as a process: the first run digests every file (and fills
 *   its cache), the next ones read the cache (the target: under 5 s on 2 cores);
 * - the page's Trends view, in Node over fake-indexeddb: the store's first read computes each
 *   session's digest from its stored results, the next ones read the kept digests and compute the
 *   trends (the target: under 2 s; a real browser's IndexedDB is not this one, see bench/README.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { computeTrends } from '../../src/engine/trends.ts';
import { blamedFailures, TREND_STEPS } from '../../src/engine/testing/trend-results.ts';
import type { CaseResult } from '../../src/engine/types.ts';
import { exportSessionFile } from '../../src/session/session-file.ts';
import { trendSession } from '../../src/session/testing/trend-sessions.ts';
import type { Session } from '../../src/session/types.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every coalition's value for a failure blamed wholly on `owner`: fixed, the case passes. */
function withCoalitions(r: CaseResult, owner: string): CaseResult {
  const coalitions = Array.from({ length: 1 << TREND_STEPS.length }, (_, mask) => {
    const fixed = TREND_STEPS.filter((_, i) => mask & (1 << i));
    return { fixed, value: fixed.includes(owner) ? 1 : 0 };
  });
  return { ...r, coalitions } as CaseResult;
}

/** Day d of the year: the retriever's share drifts from 20 % to 60 %, planner stays at 30 %. */
function yearOfStudies(days: number, failures: number): Session[] {
  return Array.from({ length: days }, (_, d) => {
    const retriever = Math.round((0.2 + (0.4 * d) / Math.max(1, days - 1)) * failures);
    const results = blamedFailures(`d${d}`, failures, { retriever, planner: Math.round(0.3 * failures) }).map((r) =>
      withCoalitions(r, r.failed && !r.error && 'lastTouch' in r ? (r.lastTouch as string) : 'writer'),
    );
    return trendSession(`day-${d}`, new Date(Date.UTC(2026, 0, 1 + d, 9)).toISOString(), results);
  });
}

export async function trendsWorkload(sizes: SuiteSizes, log: (line: string) => void): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  const label = `${sizes.trendStudies} daily studies of ${sizes.trendFailures} failures`;
  const sessions = yearOfStudies(sizes.trendStudies, sizes.trendFailures);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-bench-trends-'));
  try {
    const files = join(dir, 'sessions');
    mkdirSync(files);
    let bytes = 0;
    for (const s of sessions) {
      const text = exportSessionFile(s);
      bytes += text.length;
      writeFileSync(join(files, `${s.id}.agentblame-session.json`), text);
    }
    log(`trends: ${sessions.length} session files, ${(bytes / 1e6).toFixed(0)} MB`);

    // The command, as a user runs it (a process of its own, its bundle already built).
    const cache = join(dir, 'cache');
    const command = () => {
      const r = spawnSync(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), 'trend', files, '--by', 'week', '--json', '--digest-cache', cache], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`trend exited ${r.status}: ${r.stderr}`);
      return JSON.parse(r.stdout) as { trends: ReturnType<typeof computeTrends> };
    };
    const cold = await timeRuns(1, 0, command);
    rows.push({ group: 'trends', name: `command, first run (digests every file): ${label}`, ...cold.timing, detail: { megabytes: Math.round(bytes / 1e6), periods: cold.result.trends.periods.length, drifting: cold.result.trends.drifting } });
    const warm = await timeRuns(sizes.runs, sizes.warmup, command);
    rows.push({ group: 'trends', name: `command, digests cached: ${label}`, ...warm.timing, detail: { periods: warm.result.trends.periods.length } });

    // The page's store and the Trends view's computation, over fake-indexeddb.
    // Only this workload needs IndexedDB: installed here, not for the whole suite.
    const fakeIndexedDb: string = 'fake-indexeddb/auto';
    await import(fakeIndexedDb);
    const { SessionStore } = await import('../../src/session/store.ts');
    const store = await SessionStore.open({ name: `bench-trends-${Date.now()}`, broadcast: false });
    try {
      for (const s of sessions) await store.put(s);
      const view = async () => computeTrends(await store.trendDigests(), { grouping: { by: 'week' } });
      const first = await timeRuns(1, 0, view);
      rows.push({ group: 'trends', name: `Trends view, first open (digests every session): ${label}`, ...first.timing });
      const again = await timeRuns(sizes.runs, sizes.warmup, view);
      if (JSON.stringify(again.result) !== JSON.stringify(warm.result.trends)) throw new Error('trends: the page and the command computed different numbers');
      rows.push({ group: 'trends', name: `Trends view, digests kept: ${label}`, ...again.timing, detail: { sameAsCommand: true } });
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
