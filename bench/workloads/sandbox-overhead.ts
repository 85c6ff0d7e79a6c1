/**
 * Sandbox overhead: the demo definitions' step functions analysed as plain ES modules (imported
 * directly, trusted) and compiled in the SES sandbox (copied, frozen inputs and outputs, the
 * noise facade), same cases, same settings, in this thread. Results must be identical.
 */
import { analyzeCase, DEFAULT_SETTINGS, validatePipeline, type ValidPipeline } from '../../src/engine/index.ts';
import type { AnalysisSettings, CaseResult } from '../../src/engine/types.ts';
import { loadDemo, type DemoName } from '../lib/demos.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const EXACT: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded' };

export async function sandboxOverheadWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  for (const name of ['refund-policy', 'stochastic-rag', 'eight-step-agent'] as DemoName[]) {
    const demo = loadDemo(name);
    const cases = demo.cases.slice(0, sizes.sandboxCases);
    const analyse = (def: ValidPipeline) => () => cases.map((c) => analyzeCase(def, c, EXACT));
    const plain = await timeRuns(sizes.runs, sizes.warmup, analyse(validatePipeline(await demo.plain())));
    const ses = await timeRuns(sizes.runs, sizes.warmup, analyse(demo.sandboxed()));
    if (JSON.stringify(strip(plain.result)) !== JSON.stringify(strip(ses.result))) {
      throw new Error(`${name}: plain and sandboxed analyses differ`);
    }
    const cost = ses.result.reduce((s, r) => s + r.cost, 0);
    rows.push({ group: 'sandbox', name: `${name} ${cases.length} cases: plain`, ...plain.timing, cost });
    rows.push({
      group: 'sandbox',
      name: `${name} ${cases.length} cases: SES sandbox`,
      ...ses.timing,
      cost,
      detail: { sesOverPlain: ses.timing.wallMs / plain.timing.wallMs },
    });
  }
  return rows;
}

/** What must agree between the two: everything but error texts (which name the file). */
function strip(results: CaseResult[]) {
  return results.map(({ error, ...rest }) => ({ ...rest, error: error === undefined ? undefined : 'error' }));
}
