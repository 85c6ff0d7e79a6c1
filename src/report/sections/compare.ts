import type { StudyComparison } from '../../engine/compare-studies.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount, formatCounted, formatInterval, formatNumber, formatPercent, formatSigned } from '../format.ts';
import { barChartSvg } from '../svgBars.ts';
import { num, signClass } from './batch.ts';
import { NAME_CHARS } from './header.ts';

/** The report's comparison: the study it was set beside (by session name) and the engine's figures. */
export interface ReportComparison {
  against: string;
  comparison: StudyComparison;
}

/** Cases listed under "moved most". */
const CASES_SHOWN = 10;

/** A rank change as an arrow: ↑2 (more blamed now), ↓1, = (unchanged), — (step on one side only). */
export function rankText(change: number | null): string {
  if (change === null) return '—';
  return change > 0 ? `↑${change}` : change < 0 ? `↓${-change}` : '=';
}

/** A change of a share in percentage points, signed: +12.5 pp. */
export function pointsText(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return '—';
  return `${formatSigned(change * 100, 1)} pp`;
}

/** Said instead of the chart when two studies have no step in common (other pipelines): an empty chart of ticks reads as a broken view. */
export const NO_SHARED_STEP = 'The two studies have no step in common (other pipelines?), so no step\'s blame can be compared: each is shown on its own below. Pick a study of the same pipeline to see what changed.';

/**
 * "Compared with …": per step the change in mean Shapley with its interval (as a chart and a
 * table), the change in fix-alone rate and rank, and the cases whose blame moved most. The same
 * numbers as the workbench's Compare view and `blame --compare` (src/engine/compare-studies.ts).
 */
export function renderComparison({ against, comparison: c }: ReportComparison): string {
  const name = e(clipText(against, NAME_CHARS));
  const level = `${Number(((1 - c.delta) * 100).toFixed(2))} %`;
  const both = c.steps.filter((s) => s.shapleyChange !== null);
  const chart = barChartSvg(
    both.map((s) => ({ label: s.step, bars: [{ value: s.shapleyChange!, ...(s.ci && { ci: s.ci }) }] })),
    { title: `Change in mean Shapley per step since “${clipText(against, NAME_CHARS)}”, with ${level} intervals` },
  );
  const rows = c.steps
    .map(
      (s) =>
        `<tr><td>${e(clipText(s.step, NAME_CHARS))}</td>` +
        `<td class="num">${e(formatSigned(s.before?.meanShapley))}</td>` +
        `<td class="num">${e(formatSigned(s.after?.meanShapley))}</td>` +
        `<td class="num ${signClass(s.shapleyChange ?? undefined)}" data-v="${num(s.shapleyChange ?? 0)}">${e(formatSigned(s.shapleyChange ?? undefined))}</td>` +
        `<td class="num">${e(formatInterval(s.ci ?? undefined))}</td>` +
        `<td class="num">${e(formatPercent(s.before?.fixAloneRate))} → ${e(formatPercent(s.after?.fixAloneRate))}</td>` +
        `<td class="num" data-v="${num(s.fixAloneChange ?? 0)}">${e(pointsText(s.fixAloneChange))}</td>` +
        `<td class="num" data-v="${num(s.rankChange ?? 0)}">${s.before && s.after ? `${s.before.rank} → ${s.after.rank} ` : ''}${e(rankText(s.rankChange))}</td></tr>`,
    )
    .join('');
  const moved = c.cases.filter((x) => x.movement > 0).slice(0, CASES_SHOWN);
  const caseRows = moved
    .map((x) => `<tr><td>${e(clipText(x.id, NAME_CHARS))}</td><td class="num">${e(formatNumber(x.movement))}</td><td>${e(clipText(x.step, NAME_CHARS))}</td><td class="num">${e(formatSigned(x.before))}</td><td class="num">${e(formatSigned(x.after))}</td></tr>`)
    .join('');
  const cases = moved.length
    ? `<h3>Cases whose blame moved most</h3><table><thead><tr><th>Case</th><th class="num">Moved (Σ |change|)</th><th>Most in step</th><th class="num">Before</th><th class="num">Now</th></tr></thead><tbody>${caseRows}</tbody></table>`
    : `<p class="muted">No case analysed in both studies changed its blame.</p>`;
  return `<section id="compare" aria-labelledby="compare-title">
<h2 id="compare-title">Compared with “${name}”</h2>
<p class="muted">${e(
    `${formatCounted(c.before.analyzed, 'analysed failure')} there, ${formatCount(c.after.analyzed)} here, ${formatCount(c.shared)} in both. Changes are this study minus that one; intervals at ${level}, ${c.paired ? 'paired by case (both analysed the same failures)' : 'unpaired (the failures differ)'}.`,
  )}</p>
${both.length > 0 ? chart : `<p class="muted" data-testid="compare-no-shared-step">${e(NO_SHARED_STEP)}</p>`}
<table class="sortable"><thead><tr><th>Step</th><th class="num">Mean Shapley there</th><th class="num">Here</th><th class="num">Change</th><th class="num">${e(level)} CI</th><th class="num">Fixing alone resolves</th><th class="num">Change</th><th class="num">Rank</th></tr></thead><tbody>${rows}</tbody></table>
${cases}
</section>`;
}
