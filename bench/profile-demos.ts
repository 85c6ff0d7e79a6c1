/**
 * In-thread CPU of the two heaviest demo workloads, with a digest of everything they compute, for
 * comparing a change with the code before it on a shared machine (bench/README.md, "Speed round 5"):
 * run both versions alternately, read the minimum CPU, and check that the digests are equal.
 *
 *   npx tsx bench/profile-demos.ts [crn|eight] [repetitions=4]
 *
 * crn: the CRN study's four blocks at full size (100 failing cases, 8 replicates). eight: the 8-step
 * agent's 400 cases and a 1 400-case stream, analysed exact by analyzeSourceCase (what a pool worker
 * runs). For line ticks, bundle it first (`npx esbuild bench/profile-demos.ts --bundle
 * --platform=node --format=esm --outfile=<dir>/x/p.mjs`, with <dir>/public linked to public) and
 * run that under `node --cpu-prof`.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_SETTINGS } from '../src/engine/index.ts';
import type { AnalysisSettings } from '../src/engine/types.ts';
import { analyzeSourceCase } from '../src/sandbox/analyze-source.ts';
import { loadDemo } from './lib/demos.ts';
import { FULL_SIZES } from './lib/sizes.ts';
import { estimate, failingCases } from './workloads/crn-study.ts';
import { eightStepStream } from './workloads/demos.ts';

const [which = 'crn', repsText = '4'] = process.argv.slice(2);
const reps = Number(repsText);
if (!(which === 'crn' || which === 'eight') || !(Number.isInteger(reps) && reps >= 1)) throw new Error('usage: profile-demos.ts [crn|eight] [repetitions >= 1]');
const EXACT: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded' };

/** Everything one repetition computes. */
function once(): unknown[] {
  const out: unknown[] = [];
  if (which === 'crn') {
    const demo = loadDemo('stochastic-rag');
    const cases = failingCases(demo, FULL_SIZES);
    for (const mode of ['posterior', 'prior'] as const) for (const sampling of ['crn', 'indep'] as const) out.push(estimate(demo.sandboxed(), cases, mode, sampling, FULL_SIZES));
  } else {
    const demo = loadDemo('eight-step-agent');
    for (const c of [...demo.cases.slice(0, 400), ...eightStepStream(demo.cases, 1400)]) out.push(analyzeSourceCase(demo.source, c, EXACT, {}, 'eight-step-agent.pipeline.js'));
  }
  return out;
}

const cpuMs: number[] = [];
let last: unknown[] = [];
for (let r = 0; r < reps; r++) {
  const cpu0 = process.cpuUsage();
  last = once();
  const cpu = process.cpuUsage(cpu0);
  cpuMs.push(Math.round((cpu.user + cpu.system) / 1000));
}
const digest = createHash('sha256');
for (const item of last) digest.update(JSON.stringify(item));
process.stdout.write(`${which}: in-thread CPU ms ${cpuMs.join(' ')}, min ${Math.min(...cpuMs)}; digest ${digest.digest('hex').slice(0, 16)}\n`);
