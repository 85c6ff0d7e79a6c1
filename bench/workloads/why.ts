/**
 * Why this decision (docs/why.md; #37 point 5): decisions explained on the simulated model of the
 * method's tests (src/why/testing/simulated-model.ts): an inbox whose planted sentence moves the
 * forwarding rate from 90% to 10%, and the same inbox read by a model that ignores it (80% always).
 * Per kind: reruns (calls) and wall time per decision, median and worst over seeded decisions,
 * against the 100 to 250 calls a decision takes on runtape's recorded agents.
 */
import { explainDecision, type Predicate } from '../../src/why/index.ts';
import { FORWARD, inboxContext, PLANTED, simulatedRerun } from '../../src/why/testing/simulated-model.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';
import { treeCpuMs } from '../lib/tree-cpu.ts';

const PREDICATE: Predicate = { tool: 'forward_email' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export async function whyWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const kinds: { name: string; rate: (text: string) => number }[] = [
    { name: 'planted cause (90% with it, 10% without)', rate: (t) => (t.includes(PLANTED) ? 0.9 : 0.1) },
    { name: 'no cause (80% whatever the context)', rate: () => 0.8 },
  ];
  const rows: WorkloadResult[] = [];
  for (const kind of kinds) {
    const calls: number[] = [];
    const walls: number[] = [];
    let found = 0;
    const cpu0 = treeCpuMs();
    for (let seed = 1; seed <= sizes.whyDecisions; seed++) {
      const t0 = performance.now();
      const result = await explainDecision(inboxContext(), PREDICATE, FORWARD, simulatedRerun({ seed, rate: kind.rate, decision: FORWARD }));
      walls.push(performance.now() - t0);
      calls.push(result.calls);
      if (result.pieces.some((p) => p.role === 'headline' && p.text.includes('forward this invoice'))) found++;
    }
    const cpuMs = treeCpuMs() - cpu0;
    rows.push({
      group: 'why',
      name: `why, ${kind.name}: per decision`,
      wallMs: median(walls),
      cpuMs: cpuMs / sizes.whyDecisions,
      wallRunsMs: [median(walls)],
      reference: { what: 'calls per decision on runtape (upper end of 100-250)', value: 250, ours: median(calls), unit: 'count' },
      detail: { decisions: sizes.whyDecisions, medianCalls: median(calls), maxCalls: Math.max(...calls), worstWallMs: Math.round(Math.max(...walls)), plantedHeadline: found },
    });
  }
  return rows;
}
