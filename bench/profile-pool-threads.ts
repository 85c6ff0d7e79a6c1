/**
 * Where the command's pool spends its CPU: per-thread CPU (from /proc/PID/task/TID/stat, 10 ms
 * ticks, so read it over several batches) of this process and the pool's worker processes, per
 * batch of the 8-step agent's 400 cases analysed exact on 2 workers, or in this thread for
 * comparison (bench/README.md, "Speed round 5"). Linux only.
 *
 *   npx tsx bench/profile-pool-threads.ts [batches=6] [pool|thread]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS } from '../src/engine/index.ts';
import type { AnalysisSettings } from '../src/engine/types.ts';
import { inThreadRunner, poolRunner } from './lib/case-runner.ts';
import { loadDemo } from './lib/demos.ts';

const EXACT: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded' };

function statFields(path: string): { comm: string; fields: string[] } | null {
  try {
    const text = readFileSync(path, 'utf8');
    return { comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), fields: text.slice(text.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return null;
  }
}

/** CPU ms by thread ("main" or "child PID", then the thread's name and id), of this process and its children. */
function threadCpu(): Map<string, number> {
  const children = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && statFields(`/proc/${p}/stat`)?.fields[1] === String(process.pid));
  const out = new Map<string, number>();
  for (const pid of [String(process.pid), ...children]) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = statFields(`/proc/${pid}/task/${tid}/stat`);
      // Fields 14 and 15 (utime, stime) are rest[11] and rest[12] after the command name.
      if (stat) out.set(`${pid === String(process.pid) ? 'main' : `child ${pid}`} ${stat.comm} ${tid}`, (Number(stat.fields[11]) + Number(stat.fields[12])) * 10);
    }
  }
  return out;
}

const batches = Number(process.argv[2] ?? 6);
const demo = loadDemo('eight-step-agent');
const cases = demo.cases.slice(0, 400);
const run = process.argv[3] === 'thread' ? inThreadRunner(demo.source, 'eight-step-agent.pipeline.js') : await poolRunner(demo.source, 'eight-step-agent.pipeline.js', 2);
try {
  await run.run(cases, EXACT); // warm-up: JIT and the workers' first instances
  const before = threadCpu();
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) await run.run(cases, EXACT);
  const wall = (performance.now() - t0) / batches;
  const rows = [...threadCpu()].map(([thread, ms]) => [thread, (ms - (before.get(thread) ?? 0)) / batches] as const).filter(([, ms]) => ms > 0);
  rows.sort((a, b) => b[1] - a[1]);
  process.stdout.write(`per batch of ${cases.length} cases: wall ${wall.toFixed(0)} ms, CPU ${rows.reduce((a, [, ms]) => a + ms, 0).toFixed(0)} ms\n`);
  for (const [thread, ms] of rows) process.stdout.write(`${ms.toFixed(0).padStart(6)} ms  ${thread}\n`);
} finally {
  await run.close();
}
