/**
 * The workloads used to profile the engine (bench/README.md, "Profile"): one slow, representative
 * piece of each demo, in this thread, reporting CPU time. Run under `node --cpu-prof`:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-workload.ts [eight|eight-mc|rag|crn] [ses|plain]
 *   npx tsx bench/profile-summary.ts /tmp/prof/<largest>.cpuprofile
 */
import { analyzeCase, DEFAULT_SETTINGS, validatePipeline, type ValidPipeline } from '../src/engine/index.ts';
import type { AnalysisSettings } from '../src/engine/types.ts';
import { loadDemo } from './lib/demos.ts';
import { FULL_SIZES } from './lib/sizes.ts';
import { estimate, failingCases } from './workloads/crn-study.ts';

const [which = 'eight', flavour = 'ses'] = process.argv.slice(2);
const EXACT: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded' };

async function def(name: 'eight-step-agent' | 'stochastic-rag'): Promise<ValidPipeline> {
  const demo = loadDemo(name);
  return validatePipeline(flavour === 'plain' ? await demo.plain() : demo.sandboxed());
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
let summary = '';
if (which === 'eight') {
  const d = await def('eight-step-agent');
  const cases = loadDemo('eight-step-agent').cases;
  let cost = 0;
  for (let r = 0; r < 2; r++) for (const c of cases) cost += analyzeCase(d, c, EXACT).cost;
  summary = `eight-step: 2 x ${cases.length} cases exact, cost ${cost}`;
} else if (which === 'eight-mc') {
  // The same cases by Monte Carlo as a user picks it (default estimator and stop rule).
  const d = await def('eight-step-agent');
  const cases = loadDemo('eight-step-agent').cases;
  let cost = 0;
  for (let r = 0; r < 2; r++) for (const c of cases) cost += analyzeCase(d, c, { ...EXACT, method: 'mc' }).cost;
  summary = `eight-step: 2 x ${cases.length} cases Monte Carlo, cost ${cost}`;
} else if (which === 'rag') {
  const d = await def('stochastic-rag');
  const cases = loadDemo('stochastic-rag').cases;
  let cost = 0;
  for (const mode of ['posterior', 'prior'] as const) for (const c of cases) cost += analyzeCase(d, c, { ...EXACT, mode, worlds: 8 }).cost;
  summary = `rag: ${cases.length} cases posterior + prior, 8 worlds, cost ${cost}`;
} else if (which === 'crn') {
  // The CRN study's four blocks at a quarter of its size, in this thread.
  const demo = loadDemo('stochastic-rag');
  const sizes = { ...FULL_SIZES, crnCases: 25, crnReplicates: 4 };
  const d = await def('stochastic-rag');
  let cost = 0;
  for (const mode of ['posterior', 'prior'] as const) {
    for (const sampling of ['crn', 'indep'] as const) {
      const e = estimate(d, failingCases(demo, sizes), mode, sampling, sizes);
      cost += e.cost['exact-avg'] + e.cost['mc-perm'];
    }
  }
  summary = `crn: 25 cases, 4 replicates, cost ${cost}`;
} else {
  throw new Error(`unknown workload ${which} (eight, eight-mc, rag, crn)`);
}
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${summary}\n  wall ${(performance.now() - t0).toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
