/**
 * Recorded runs: the whole Who&When benchmark (184 logs, 6.8 MB) read from
 * ../shared/samples/whowhen, each file through format detection and its importer as
 * `--inspect` reads it, then the three baselines scored over all runs. Target: under 2 s to import.
 * Skipped (no rows) when the samples are not beside the checkout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseInputFile } from '../../src/formats/detect.ts';
import { scoreHeuristics, type RecordedRun } from '../../src/runs/index.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const WHOWHEN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/samples/whowhen');

export async function recordedRunsWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  if (!existsSync(WHOWHEN)) return [];
  const texts = ['algorithm', 'hand'].flatMap((sub) => readdirSync(join(WHOWHEN, sub)).filter((f) => f.endsWith('.json')).map((f) => ({ name: `${sub}/${f}`, text: readFileSync(join(WHOWHEN, sub, f), 'utf8') })));
  const read = (): RecordedRun[] =>
    texts.flatMap(({ name, text }) => {
      const input = parseInputFile(text, name);
      return input.kind === 'runs' ? input.runs.runs : [];
    });
  const imported = await timeRuns(sizes.runs, sizes.warmup, read);
  if (imported.result.length !== texts.length) throw new Error(`Who&When: ${imported.result.length} runs from ${texts.length} files`);
  const scored = await timeRuns(sizes.runs, sizes.warmup, () => scoreHeuristics(imported.result));
  return [
    { group: 'recorded-runs', name: `Who&When import, ${texts.length} logs`, ...imported.timing, detail: { targetMs: 2000, steps: imported.result.reduce((n, r) => n + r.steps.length, 0) } },
    { group: 'recorded-runs', name: `Who&When baselines scored, ${texts.length} runs`, ...scored.timing },
  ];
}
