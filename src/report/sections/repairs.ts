import type { CaseResult } from '../../engine/types.ts';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { causalConsensus } from '../../engine/repairs/causal-consensus.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount } from '../format.ts';
import { num } from './batch.ts';
import { NAME_CHARS } from './header.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** Minimal repairs per failure and the causal consensus per step; empty when no failure was searched for repairs. */
export function renderRepairs(results: readonly CaseResult[], stepOrder: readonly string[]): string {
  const searched = results.filter(isAnalysedFailure).filter((r) => r.repairs !== undefined);
  if (searched.length === 0) return '';
  const steps = stepOrder.length ? stepOrder : [...new Set(searched.flatMap((r) => r.players))];
  const consensus = causalConsensus(steps, searched.map((r) => r.repairs!.map((x) => x.fixed)));
  const consensusRows = consensus
    .map(
      (s) =>
        `<tr><td>${e(clipText(s.step, NAME_CHARS))}</td><td class="num" data-v="${num(s.cases)}">${e(`${formatCount(s.cases)} of ${formatCount(s.of)}`)}</td>` +
        `<td class="num" data-v="${num(s.share)}">${e(pct(s.share))}</td><td class="num">${e(`[${pct(s.ci[0])}, ${pct(s.ci[1])}]`)}</td></tr>`,
    )
    .join('');
  const caseRows = searched
    .map((r) => {
      const sets = r.repairs!.length ? r.repairs!.map((x) => `<span class="chip">{${e(x.fixed.map((s) => clipText(s, NAME_CHARS)).join(', '))}} · cost ${e(String(x.cost))}</span>`).join(' ') : '<span class="muted">none in the search</span>';
      const scope = r.repairSearch?.complete ? 'every set' : `sets of up to ${r.repairSearch?.maxSize ?? '?'} steps`;
      return `<tr><td>${e(clipText(r.id, NAME_CHARS))}</td><td>${sets}</td><td>${e(scope)}</td></tr>`;
    })
    .join('');
  const success = searched[0].repairSearch?.success;
  return `<section id="repairs" aria-labelledby="repairs-title">
<h2 id="repairs-title">Minimal repairs</h2>
<p>A minimal repair is a set of fixes that brings a failure to ${success === undefined ? 'success' : e(`v ≥ ${success}`)} while none of its proper subsets does; listed smallest first, then cheapest. The causal consensus of a step is the share of the ${e(formatCount(searched.length))} searched failure${searched.length === 1 ? '' : 's'} whose minimal repairs include it (Wilson 95% interval).</p>
<table class="sortable"><thead><tr><th>Step</th><th class="num">Failures</th><th class="num">Consensus</th><th class="num">Wilson 95%</th></tr></thead><tbody>${consensusRows}</tbody></table>
<table><thead><tr><th>Case</th><th>Minimal repairs</th><th>Searched</th></tr></thead><tbody>${caseRows}</tbody></table>
</section>`;
}
