/**
 * A definition that lists its own cases against the same cases given separately (as a trace
 * gives them), on the Node worker pool: this is where the first quadratic was found (its cases rebuilt and
 * its text re-sent and re-hashed for every case). The ratio should stay near 1 and must not grow
 * with the number of cases. Cases built by a loop at the top level are the same cases again.
 */
import { DEFAULT_SETTINGS } from '../../src/engine/index.ts';
import type { CaseDef } from '../../src/engine/types.ts';
import { NodeAnalysisPool } from '../../src/pool/node/analysis-pool.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const STEPS = `steps: [
    { name: 'a', inputs: ['x'], cost: 1, run: ({ x }) => (x % 3 === 0 ? 'bad' : 'good'), fixes: [{ name: 'f', cost: 1, run: () => 'good' }] },
    { name: 'b', inputs: ['a'], cost: 1, run: ({ a }) => a, fixes: [{ name: 'f', cost: 1, run: () => 'good' }] },
  ],
  metric: (o) => (o.b === 'good' ? 1 : 0),`;

function ownCasesSource(cases: readonly CaseDef[] | null): string {
  const listed = cases ? `\n  cases: [\n${cases.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ],` : '';
  return `export default {\n  name: 'own-cases',\n  ${STEPS}${listed}\n};\n`;
}

/** The same cases built by a loop at the definition's top level (once rebuilt for every case). */
function builtCasesSource(n: number): string {
  return `const cases = [];\nfor (let i = 0; i < ${n}; i++) cases.push({ id: 'c' + i, inputs: { x: i } });\nexport default {\n  name: 'own-cases',\n  ${STEPS}\n  cases,\n};\n`;
}

export async function ownCasesWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const rows: WorkloadResult[] = [];
  for (const n of sizes.ownCases) {
    const cases: CaseDef[] = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, inputs: { x: i } }));
    const timed = async (source: string) =>
      timeRuns(sizes.runs, sizes.warmup, async () => {
        const pool = new NodeAnalysisPool({ size: Math.max(1, sizes.workers), timeoutMs: 120_000, fileName: 'own-cases.js' });
        try {
          const description = await pool.describe(source);
          return await pool.run(source, description.cases.length > 0 ? description.cases : cases, DEFAULT_SETTINGS);
        } finally {
          await pool.close();
        }
      });
    const separate = await timed(ownCasesSource(null));
    const listed = await timed(ownCasesSource(cases));
    const built = await timed(builtCasesSource(n));
    for (const [what, other] of [['listed', listed], ['built', built]] as const) {
      if (other.result.length !== n || JSON.stringify(other.result) !== JSON.stringify(separate.result)) throw new Error(`own cases (${n}, ${what}): results differ from the same cases given separately`);
    }
    rows.push({ group: 'own-cases', name: `${n} cases given separately (as a trace)`, ...separate.timing });
    rows.push({ group: 'own-cases', name: `${n} cases listed in the definition`, ...listed.timing, detail: { overSeparate: listed.timing.wallMs / separate.timing.wallMs } });
    rows.push({ group: 'own-cases', name: `${n} cases built by its top level`, ...built.timing, detail: { overSeparate: built.timing.wallMs / separate.timing.wallMs } });
  }
  return rows;
}
