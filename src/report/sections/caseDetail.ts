import type { CaseResult } from '../../engine/types.ts';
import { topStep } from '../caseOrder.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount, formatInterval, formatModelUsage, formatNumber, formatOutput, formatSigned } from '../format.ts';
import { ownNumber, ownValue } from '../own.ts';
import { waterfallSvg } from '../svgWaterfall.ts';
import { convergenceSvg } from '../svgConvergence.ts';
import { num, signClass } from './batch.ts';
import { NAME_CHARS } from './header.ts';
import { BUDGET_SKIPPED_LABELS, NOT_COMPUTED_WITHIN_BUDGET as NOT_COMPUTED } from '../../engine/result-fields.ts';

/** Longest output shown in the drill-down; the embedded session keeps the whole value. */
export const OUTPUT_CHARS = 2000;
/** The coalition table is shown up to this many steps (2^10 rows), as the engine records it. */
export const MAX_COALITION_PLAYERS = 10;

/**
 * One case's drill-down as a native <details> (works without JavaScript): Shapley beside the
 * baselines, the coalition table, the factual and all-fixed outputs, replay mismatches, and the
 * Monte Carlo convergence when the case was estimated by sampling.
 * `index` only builds element ids, so no user text ever lands in an id. `budget`: the settings'
 * Monte Carlo budget, so the facts say what the case spent against it.
 */
export function renderCaseDetail(result: CaseResult, index: number, open: boolean, budget = Infinity): string {
  const top = topStep(result);
  const status = result.error ? 'error' : !result.failed ? 'passed' : result.fixable === false ? 'unfixable' : 'failed';
  const statusText = { error: 'error', passed: 'passed', unfixable: 'failed, not fixable', failed: 'failed' }[status];
  const summary =
    `<summary><span class="case-id">${e(clipText(result.id, NAME_CHARS))}</span>` +
    `<span class="badge ${status}">${statusText}</span>` +
    (top ? `<span class="summary-top">top: ${e(clipText(top.step, 60))} ${e(formatSigned(top.value))}</span>` : '') +
    `<span class="summary-meta">${e(`${result.method === 'mc' ? 'Monte Carlo' : 'exact'} · cost ${formatCount(result.cost)}`)}</span></summary>`;

  const body: string[] = [];
  if (result.error) body.push(`<p class="warning"><strong>Could not analyse this case:</strong> ${e(clipText(result.error, OUTPUT_CHARS))}</p>`);
  body.push(renderCaseFacts(result, budget));
  if (result.shapley) body.push(renderCaseTable(result, index));
  if (result.coalitions && result.players.length <= MAX_COALITION_PLAYERS) body.push(renderCoalitions(result));
  if (result.factualOutputs || result.fixedOutputs) body.push(renderOutputs(result));
  if (result.mismatches?.length) {
    body.push(`<h4>Replay mismatches</h4><p class="muted">The replay did not reproduce the recorded run here:</p><ul>${result.mismatches.map((m) => `<li>${e(clipText(m, OUTPUT_CHARS))}</li>`).join('')}</ul>`);
  }
  if (result.history?.length) {
    body.push(`<h4>Monte Carlo convergence</h4>${convergenceSvg(result.history, result.players, `Running Shapley estimates for case ${clipText(result.id, 80)}`)}`);
  }
  return `<details class="case" id="case-${index}"${open ? ' open' : ''}>${summary}<div class="case-body">${body.join('\n')}</div></details>`;
}

function renderCaseFacts(result: CaseResult, budget: number): string {
  const fact = (term: string, text: string) => `<div><dt>${e(term)}</dt><dd>${e(text)}</dd></div>`;
  const facts = [
    fact('v(no fix)', formatNumber(result.vEmpty)),
    fact('v(all fixes)', formatNumber(result.vAll)),
    fact('Method', result.method === 'mc' ? `Monte Carlo, ${formatCount(result.permutations)} permutations` : 'exact'),
    fact('Coalitions evaluated', formatCount(result.evaluations)),
    fact('Step cost', result.method === 'mc' && Number.isFinite(budget) ? `${formatCount(result.cost)} of a budget of ${formatCount(budget)}` : formatCount(result.cost)),
  ];
  if (result.notComputed?.length) facts.push(fact('Not computed within the budget', result.notComputed.map((part) => BUDGET_SKIPPED_LABELS[part]).join(', ')));
  if (result.usage) facts.push(fact('Model requests', formatModelUsage(result.usage)));
  if (result.stopReason) facts.push(fact('Stopped by', result.stopReason));
  if (result.fixable !== undefined) facts.push(fact('Fixable', result.fixable ? 'yes, by some combination of fixes' : 'no combination of fixes repairs it'));
  facts.push(fact('Last step to touch', result.lastTouch ? clipText(result.lastTouch, NAME_CHARS) : 'none'));
  return `<dl class="facts compact">${facts.join('')}</dl>`;
}

function renderCaseTable(result: CaseResult, index: number): string {
  const rows = result.players
    .map((player) => {
      const shapley = ownNumber(result.shapley, player);
      const ci = ownValue(result.ci, player);
      const alone = ownNumber(result.fixAlone, player);
      const loo = ownNumber(result.leaveOneOut, player);
      const baseline = (value: number | undefined, computed: boolean) =>
        computed ? `<td class="num" data-v="${num(value ?? 0)}">${e(formatSigned(value))}</td>` : `<td class="num muted" data-v="0" title="${NOT_COMPUTED}">—</td>`;
      return (
        `<tr><td>${e(clipText(player, NAME_CHARS))}</td>` +
        `<td class="num ${signClass(shapley)}" data-v="${num(shapley ?? 0)}">${e(formatSigned(shapley))}</td>` +
        (result.ci ? `<td class="num">${e(formatInterval(ci))}</td>` : '') +
        baseline(alone, result.fixAlone !== undefined) +
        baseline(loo, result.leaveOneOut !== undefined) +
        `<td>${result.lastTouch === player ? 'last touch' : ''}</td></tr>`
      );
    })
    .join('');
  // The waterfall from v(∅) to v(all), as in the workbench's case view (the same builder).
  const chart = result.shapley ? waterfallSvg(result.vEmpty, result.vAll, result.shapley, result.players) : '';
  const sum = result.players.reduce((total, p) => total + (ownNumber(result.shapley, p) ?? 0), 0);
  return `<table class="sortable" id="case-${index}-blame"><thead><tr><th>Step</th><th class="num">Shapley</th>${result.ci ? '<th class="num">CI</th>' : ''}<th class="num">Fix-alone</th><th class="num">Leave-one-out</th><th>Baseline blame</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">The Shapley values add up to v(all) − v(no fix) = ${e(formatSigned(sum))}.${result.fixAlone === undefined || result.leaveOneOut === undefined ? ` ${[result.fixAlone === undefined ? 'Fix-alone' : '', result.leaveOneOut === undefined ? 'leave-one-out' : ''].filter(Boolean).join(' and ')}: ${NOT_COMPUTED} (—).` : ''}</p>
${chart}`;
}

function renderCoalitions(result: CaseResult): string {
  const order = new Map(result.players.map((p, i) => [p, i]));
  const rank = (fixed: readonly string[]) => fixed.reduce((mask, p) => mask + 2 ** (order.get(p) ?? 0), 0);
  const rows = [...(result.coalitions ?? [])]
    .sort((a, b) => a.fixed.length - b.fixed.length || rank(a.fixed) - rank(b.fixed))
    .map(
      (c) =>
        `<tr><td>${c.fixed.length ? c.fixed.map((p) => e(clipText(p, 60))).join(', ') : '<span class="muted">none (the factual run)</span>'}</td>` +
        `<td class="num">${e(formatCount(c.fixed.length))}</td><td class="num" data-v="${num(c.value)}">${e(formatNumber(c.value))}</td></tr>`,
    )
    .join('');
  return `<h4>Coalitions: v(S) with the steps in S fixed</h4><table class="sortable"><thead><tr><th>Steps fixed</th><th class="num">Size</th><th class="num">v(S)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderOutputs(result: CaseResult): string {
  const factual = result.factualOutputs ?? {};
  const fixed = result.fixedOutputs ?? {};
  const steps = [...result.players];
  for (const key of [...Object.keys(factual), ...Object.keys(fixed)]) if (!steps.includes(key)) steps.push(key);
  const rows = steps
    .map((step) => {
      const before = formatOutput(ownValue(factual, step));
      const after = formatOutput(ownValue(fixed, step));
      const changed = before !== after;
      return (
        `<tr${changed ? ' class="changed"' : ''}><td>${e(clipText(step, NAME_CHARS))}${changed ? ' <span class="muted">(changed)</span>' : ''}</td>` +
        `<td><pre>${e(clipText(before, OUTPUT_CHARS))}</pre></td><td><pre>${e(clipText(after, OUTPUT_CHARS))}</pre></td></tr>`
      );
    })
    .join('');
  return `<h4>Outputs</h4><table><thead><tr><th>Step</th><th>Factual run</th><th>All fixes applied</th></tr></thead><tbody>${rows}</tbody></table>`;
}
