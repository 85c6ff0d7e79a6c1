import type { AnalysisSettings, CaseResult } from '../../engine/types.ts';
import { listEstimators } from '../../engine/shapley/registry.ts';
import { METHOD_CHOICES, MODE_CHOICES, RADIUS_CHOICES, STOP_RULE_CHOICES } from '../../engine/setting-choices.ts';
import type { Session } from '../../session/types.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import type { FixConsidered } from '../fixesConsidered.ts';
import { formatCost, formatCount, formatCounted, formatDate, formatModelUsage, formatNumber } from '../format.ts';
import { sumUsage } from '../../engine/model-call.ts';
import { otherSettingFacts } from './setting-facts.ts';
import { SETTINGS_SCHEMA } from '../../engine/settings/schema.ts';
import { unfixableText } from '../../engine/unfixable-text.ts';

/** Longest name shown in full in headings and tables; the embedded data keeps the rest. */
export const NAME_CHARS = 300;

/**
 * What the study's model requests cost at the prices the caller has (the workbench's, per 1M
 * tokens): each distinct request its results name once, as the Batch view counts it.
 */
export interface ReportModelCost {
  /** Dollars for the priced requests; null when none is priced (then nothing is shown). */
  cost: number | null;
  requests: number;
  /** Requests whose model has no price (not in `cost`). */
  unpriced: number;
  unpricedModels: readonly string[];
  /** Requests the results name whose response the caller could not read (not counted). */
  missing: number;
  /** The prices the cost was counted at, per 1M tokens. */
  prices: readonly { model: string; input: number; output: number }[];
}

/**
 * The report's opening: session name, pipeline, file, date, every analysis setting in words, and
 * the fixes considered with the plain statement that blame is relative to them.
 */
export function renderHeader(session: Session, fixes: readonly FixConsidered[], modelCost?: ReportModelCost): string {
  const settings = session.settings;
  const totalCost = session.batch?.cost ?? session.results.reduce((sum, r) => sum + (Number.isFinite(r.cost) ? r.cost : 0), 0);
  const failures = session.results.filter((r) => r.failed).length;
  const usage = session.batch?.usage ?? sumUsage(session.results.map((r) => r.usage));
  const errors = session.results.filter((r) => r.error).length;
  // A game table is analysed as one case, so a game study counts its games here.
  const caseCount = session.cases.length + (session.games?.length ?? 0);
  const date = formatDate(session.updatedAt);
  const isoDate = Number.isFinite(Date.parse(session.updatedAt)) ? new Date(Date.parse(session.updatedAt)).toISOString() : '';
  const fact = (term: string, html: string) => `<div><dt>${e(term)}</dt><dd>${html}</dd></div>`;

  const facts = [
    fact('Pipeline', session.pipeline ? e(clipText(session.pipeline.name, NAME_CHARS)) : '<span class="muted">none: coalition values were supplied by a game file</span>'),
    fact('File', `<span class="mono">${e(clipText(session.fileName, NAME_CHARS))}</span>`),
    fact('Analysed', isoDate ? `<time datetime="${e(isoDate)}">${e(date)}</time>` : e(clipText(date, NAME_CHARS))),
    fact(SETTINGS_SCHEMA.mode.label, e(describeMode(settings))),
    fact(SETTINGS_SCHEMA.worlds.label, e(settings.mode === 'recorded' ? '1 (each case’s recorded world)' : `${formatCount(settings.worlds)} shared by all coalitions`)),
    fact(SETTINGS_SCHEMA.method.label, e(describeMethod(settings, session.results))),
    fact('Confidence', e(`δ = ${settings.delta} (intervals hold together with probability ≥ ${Number(((1 - settings.delta) * 100).toFixed(2))} %)`)),
    // The Monte Carlo knobs only where sampling ran (an exact run has no stop rule or budget).
    ...(sampled(settings, session.results)
      ? [fact(SETTINGS_SCHEMA.stop.label, e(describeStop(settings))), fact('Budget per case', e(Number.isFinite(settings.budget) ? `${formatCount(settings.budget)} step-cost units` : 'none'))]
      : []),
    fact('Total step cost', e(`${formatCount(totalCost)} units`)),
    ...(usage ? [fact('Model requests', e(formatModelUsage(usage)))] : []),
    ...(modelCost && modelCost.cost !== null ? [fact('Model cost', e(describeModelCost(modelCost, modelCost.cost)))] : []),
    fact(SETTINGS_SCHEMA.seed.label, e(String(settings.seed))),
    ...otherSettingFacts(settings, sampled(settings, session.results) ? 'mc' : 'exact').map((f) => fact(f.term, e(f.value))),
    fact('Cases', e(`${formatCount(caseCount)} in the file, ${formatCount(session.results.length)} run, ${formatCount(failures)} failed${errors ? `, ${formatCount(errors)} with errors` : ''}${session.batch ? `, ${formatCount(session.batch.unfixable)} ${unfixableText(settings.mode)}` : ''}`)),
  ];

  const status =
    session.status === 'done'
      ? ''
      : `<p class="warning">${e(
          session.status === 'running'
            ? `Partial results: the analysis was still running when this report was made (${session.results.length} of ${caseCount} cases finished).`
            : session.status === 'cancelled'
              ? `Partial results: the analysis was cancelled after ${session.results.length} of ${caseCount} cases.`
              : `The analysis has not finished (${session.results.length} of ${caseCount} cases have results).`,
        )}</p>`;

  // A game study has no definition: its values were computed elsewhere, under fixes we cannot name.
  const unnamedFix = session.pipeline
    ? 'its default fix (the first one the definition lists)'
    : 'the fix behind the game table’s values (computed outside agentblame)';
  const fixRows = fixes
    .map((f) => `<tr><td>${e(clipText(f.step, NAME_CHARS))}</td><td>${f.fix === null ? `<span class="muted">${unnamedFix}</span>` : e(clipText(f.fix, NAME_CHARS))}</td></tr>`)
    .join('');

  return `<header>
<p class="eyebrow">agentblame report</p>
<h1>${e(clipText(session.name, NAME_CHARS))}</h1>
<dl class="facts">${facts.join('')}</dl>
${status}
</header>
<section id="fixes" aria-labelledby="fixes-title">
<h2 id="fixes-title">Fixes considered</h2>
<p class="callout"><strong>Blame is relative to these fixes.</strong> A step’s value says how much swapping in the fix below repairs the failures, with the randomness held fixed; it does not say the step is wrong in any absolute sense. Other fixes, or an oracle for a step, can split the blame differently.</p>
${fixes.length ? `<table><thead><tr><th>Step</th><th>Fix</th></tr></thead><tbody>${fixRows}</tbody></table>` : '<p class="muted">No steps: nothing was analysed.</p>'}
</section>`;
}

/** "$0.01234 for 12 requests at $0.40 in, $1.60 out per 1M tokens (gpt-4.1-mini); not counting 3 (no price for m)". */
function describeModelCost(modelCost: ReportModelCost, cost: number): string {
  const priced = modelCost.requests - modelCost.unpriced;
  const prices = modelCost.prices.map((p) => `${p.model}: ${formatPrice(p.input)} in, ${formatPrice(p.output)} out`).join('; ');
  const left = [
    ...(modelCost.unpriced > 0 ? [`not counting ${formatCount(modelCost.unpriced)} (no price for ${modelCost.unpricedModels.join(', ')})`] : []),
    ...(modelCost.missing > 0 ? [`${formatCounted(modelCost.missing, 'request')} not in the response store, not counted`] : []),
  ];
  return `${formatCost(cost)} for ${formatCounted(priced, 'request')} at the workbench’s prices per 1M tokens (${prices})${left.length > 0 ? `; ${left.join('; ')}` : ''}`;
}

/** A price per 1M tokens as it was entered, in cents at least ("$0.40", "$0.075"). */
function formatPrice(price: number): string {
  return `$${Number.isInteger(Math.round(price * 1e6) / 1e4) ? price.toFixed(2) : String(price)}`;
}

export function describeMode(settings: AnalysisSettings): string {
  return Object.hasOwn(MODE_CHOICES, settings.mode) ? MODE_CHOICES[settings.mode].description : String(settings.mode);
}

/** Whether any case was sampled (by its result), or, before any result, whether the settings would sample. */
function sampled(settings: AnalysisSettings, results: readonly CaseResult[]): boolean {
  const ran = results.filter((r) => !r.error);
  return ran.length > 0 ? ran.some((r) => r.method === 'mc') : settings.method !== 'exact';
}

/**
 * What ran, from the results (the method each case was analysed with), not what the settings
 * allowed: an `auto` run that was exact says exact, with no estimator named.
 */
export function describeMethod(settings: AnalysisSettings, results: readonly CaseResult[]): string {
  const mc = `${METHOD_CHOICES.mc.description} with the ${describeEstimator(settings)} estimator (${describeRadius(settings)}, at most the queries of ${formatCount(settings.maxPermutations)} permutations)`;
  const ran = results.filter((r) => !r.error);
  const exactCount = ran.filter((r) => r.method === 'exact').length;
  const sampledCount = ran.length - exactCount;
  // Sampled cases that ended with every coalition known carry the exact values.
  const finishedExactly = ran.filter((r) => r.method === 'mc' && r.stopReason === 'exact').length;
  const exactly = finishedExactly > 0 ? `; ${formatCount(finishedExactly)} of ${formatCount(sampledCount)} finished with the exact values once sampling had done the exact method's work` : '';
  if (ran.length === 0) return settings.method === 'exact' ? METHOD_CHOICES.exact.description : settings.method === 'mc' ? mc : `${METHOD_CHOICES.auto.description} (no case analysed yet)`;
  if (sampledCount === 0) return `${METHOD_CHOICES.exact.description}${settings.method === 'auto' ? ' (chosen by auto)' : ''}`;
  if (exactCount === 0) return `${mc}${exactly}`;
  return `exact for ${formatCounted(exactCount, 'case')}, ${mc} for ${formatCount(sampledCount)}${exactly}`;
}

function describeRadius(settings: AnalysisSettings): string {
  return Object.hasOwn(RADIUS_CHOICES, settings.radius) ? RADIUS_CHOICES[settings.radius].description : String(settings.radius);
}

/** The estimator by its registry label (the session validator only lets registered names through). */
function describeEstimator(settings: AnalysisSettings): string {
  const known = listEstimators().find((x) => x.name === settings.estimator);
  return `“${known ? known.label.toLowerCase() : String(settings.estimator)}”`;
}

function describeStop(settings: AnalysisSettings): string {
  if (!Object.hasOwn(STOP_RULE_CHOICES, settings.stop)) return String(settings.stop);
  const rule = STOP_RULE_CHOICES[settings.stop].description.replace('{width}', formatNumber(settings.width));
  const tie = settings.tieTolerance ?? 0;
  return (settings.stop === 'top1' || settings.stop === 'ranking') && tie > 0 ? `${rule}; steps within ±${formatNumber(tie)} of each other count as tied` : rule;
}
