/**
 * `npm run bench`: the headless benchmark suite (bench/README.md). Prints a table and writes
 * bench/results.json.
 *
 *   npm run bench                         # everything, 3 timed runs each (median), 1 warm-up
 *   npm run bench -- --only exact,mc      # some groups: refund, rag, eight-step, exact, mc, sandbox, model-steps, own-cases, replay, replay-scaling, why, trends
 *   npm run bench -- --runs 5 --workers 1 # more runs; demo batches on one worker thread
 *   npm run bench -- --smoke              # every workload at a tiny size (seconds)
 *   npm run bench -- --only own-cases --own-cases 8000,40000 --runs 1 --warmup 0
 */
import { availableParallelism, cpus, loadavg, platform } from 'node:os';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_SIZES, SMOKE_SIZES, type SuiteSizes } from './lib/sizes.ts';
import type { WorkloadResult } from './lib/result.ts';
import { demoTotals, formatCrnTable, formatTable, formatTargets, formatTotals, targets } from './lib/report.ts';
import { eightStepWorkload, ragWorkload, refundWorkload } from './workloads/demos.ts';
import { exactScalingWorkload } from './workloads/exact-scaling.ts';
import { mcEfficiencyWorkload } from './workloads/mc-efficiency.ts';
import { estimatorsWorkload } from './workloads/estimators.ts';
import { sandboxOverheadWorkload } from './workloads/sandbox-overhead.ts';
import { modelStepsWorkload } from './workloads/model-steps.ts';
import { recordedRunsWorkload } from './workloads/recorded-runs.ts';
import { ownCasesWorkload } from './workloads/own-cases.ts';
import { replayWorkload } from './workloads/replay.ts';
import { replayScalingWorkload } from './workloads/replay-scaling.ts';
import { whyWorkload } from './workloads/why.ts';
import { trendsWorkload } from './workloads/trends.ts';

export const WORKLOADS: Record<string, (sizes: SuiteSizes, log: (line: string) => void) => Promise<WorkloadResult[]>> = {
  // Sandbox first: it also times plain definitions, best measured before anything else warms up.
  sandbox: sandboxOverheadWorkload,
  refund: refundWorkload,
  rag: ragWorkload,
  'eight-step': eightStepWorkload,
  exact: exactScalingWorkload,
  mc: mcEfficiencyWorkload,
  'model-steps': modelStepsWorkload,
  runs: recordedRunsWorkload,
  estimators: estimatorsWorkload,
  'own-cases': ownCasesWorkload,
  replay: replayWorkload,
  'replay-scaling': replayScalingWorkload,
  why: whyWorkload,
  trends: trendsWorkload,
};

export const RESULTS_PATH = resolve(dirname(fileURLToPath(import.meta.url)), 'results.json');

export interface SuiteOutput {
  machine: { cores: number; cpuModel: string; node: string; platform: string; loadAverage: number[] };
  date: string;
  sizes: SuiteSizes;
  workloads: WorkloadResult[];
  demoTotals: ReturnType<typeof demoTotals>;
  targets: ReturnType<typeof targets>;
  browser?: unknown;
}

export async function runSuite(sizes: SuiteSizes, only: readonly string[] = Object.keys(WORKLOADS), log: (line: string) => void = () => {}): Promise<SuiteOutput> {
  const workloads: WorkloadResult[] = [];
  for (const name of only) {
    const fn = WORKLOADS[name];
    if (!fn) throw new Error(`unknown workload group "${name}" (groups: ${Object.keys(WORKLOADS).join(', ')})`);
    const t0 = performance.now();
    const rows = await fn(sizes, log);
    log(`${name}: ${rows.length} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    workloads.push(...rows);
  }
  return {
    machine: { cores: availableParallelism(), cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: platform(), loadAverage: loadavg() },
    date: new Date().toISOString(),
    sizes,
    workloads,
    demoTotals: demoTotals(workloads),
    targets: targets(workloads),
  };
}

function parseArgs(argv: string[]): { sizes: SuiteSizes; only?: string[]; out: string | null } {
  let sizes: SuiteSizes = { ...FULL_SIZES, workers: availableParallelism() };
  let only: string[] | undefined;
  let out: string | null = RESULTS_PATH;
  const overrides: Partial<SuiteSizes> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const int = (what: string, min: number) => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < min) throw new Error(`${what} must be an integer >= ${min}`);
      return v;
    };
    if (a === '--smoke') sizes = { ...SMOKE_SIZES };
    else if (a === '--only') only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--runs') overrides.runs = int('--runs', 1);
    else if (a === '--warmup') overrides.warmup = int('--warmup', 0);
    else if (a === '--workers') overrides.workers = int('--workers', 0);
    else if (a === '--own-cases') overrides.ownCases = value().split(',').map((v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error('--own-cases takes case counts, e.g. 8000,40000');
      return n;
    });
    else if (a === '--no-write') out = null;
    else throw new Error(`unknown argument ${a} (see the comment at the top of bench/run.ts)`);
  }
  return { sizes: { ...sizes, ...overrides }, only, out };
}

async function main(): Promise<void> {
  const { sizes, only, out } = parseArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`bench: ${availableParallelism()} cores, Node ${process.version}, ${sizes.runs} timed runs (+${sizes.warmup} warm-up), ${sizes.workers} workers for demo batches`);
  const result = await runSuite(sizes, only, log);
  // Keep the browser section of an earlier run: it comes from a different command.
  if (out && existsSync(out)) {
    try {
      const previous = JSON.parse(readFileSync(out, 'utf8')) as SuiteOutput;
      if (previous.browser) result.browser = previous.browser;
    } catch {
      // An unreadable old file is simply replaced.
    }
  }
  const parts = [formatTable(result.workloads), formatCrnTable(result.workloads), formatTotals(result.workloads), formatTargets(result.targets)];
  process.stdout.write(parts.filter(Boolean).join('\n\n') + '\n');
  if (out) {
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    log(`wrote ${out}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.stack ?? e.message : e}\n`);
    process.exitCode = 1;
  });
}
