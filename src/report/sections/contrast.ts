import type { ContrastTurnRow, RunContrast, SessionContrast } from '../../session/types.ts';
import { clipText, escapeHtml as e } from '../escape.ts';
import { formatCount } from '../format.ts';
import { fewestTrialsReaching } from '../../engine/stats/wilson-interval.ts';
import { num } from './batch.ts';
import { NAME_CHARS } from './header.ts';

/** Replays per arm below which no point of commitment can show (the 90 % rule the text states). */
const FEWEST_COMMITTING = fewestTrialsReaching(0.9);

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const signedPct = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${(100 * Math.abs(x)).toFixed(0)} %`;
const interval = (ci: readonly [number, number], end: (x: number) => string = pct) => `[${end(ci[0])}, ${end(ci[1])}]`;
const px = (x: number) => String(Math.round(x * 10) / 10);

const LABEL = 170;
const PLOT = 420;
const ROW = 26;

/**
 * Per model turn, the failure rate with the turn regenerated (filled dot) and kept (hollow dot),
 * each with its Wilson interval as a whisker, on one 0 to 100 % axis; the point of commitment's
 * row is labelled. Inline SVG drawn with the report's own chart classes (the report loads nothing).
 */
function contrastSvg(run: RunContrast): string {
  const rows = run.contrast;
  const top = 20;
  const height = top + rows.length * ROW + 34;
  const x = (rate: number) => LABEL + rate * PLOT;
  const title = `Failure rate per model turn of ${run.run}: regenerated from the turn on (filled) against kept as recorded through it (hollow), with 95% Wilson intervals.`;
  const parts = [`<svg class="chart strip" viewBox="0 0 ${LABEL + PLOT + 110} ${height}" role="img" aria-label="${e(title)}" data-testid="contrast-chart">`, `<title>${e(title)}</title>`];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${px(x(tick))}" x2="${px(x(tick))}" y1="${top}" y2="${height - 24}"/>`, `<text class="tick" x="${px(x(tick))}" y="${height - 8}" text-anchor="middle">${e(pct(tick))}</text>`);
  }
  // The legend: which dot is which arm.
  parts.push(`<circle class="dot pos" cx="${LABEL + 6}" cy="8" r="5"/><text class="value" x="${LABEL + 16}" y="12">regenerated from the turn on</text>`);
  parts.push(`<circle class="dot neg" cx="${LABEL + 226}" cy="8" r="5" fill-opacity="0.25"/><text class="value" x="${LABEL + 236}" y="12">kept through the turn</text>`);
  rows.forEach((row, k) => {
    const y = top + k * ROW + ROW / 2;
    const committed = run.commitment?.index === row.index;
    parts.push(`<text class="label" x="${LABEL - 8}" y="${px(y + 4)}" text-anchor="end">${e(clipText(`${row.step} ${row.agent}`, 24))}</text>`);
    for (const [arm, dy, cls] of [[row.regenerated, -4, 'dot pos'], [row.kept, 4, 'dot neg']] as const) {
      if (arm.n === 0) continue;
      parts.push(`<line class="whisker" x1="${px(x(arm.ci[0]))}" x2="${px(x(arm.ci[1]))}" y1="${px(y + dy)}" y2="${px(y + dy)}"/>`, `<circle class="${cls}" cx="${px(x(arm.rate))}" cy="${px(y + dy)}" r="5"${cls === 'dot neg' ? ' fill-opacity="0.25"' : ''}/>`);
    }
    if (committed) parts.push(`<text class="end" x="${px(LABEL + PLOT + 10)}" y="${px(y + 4)}">◆ commitment</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

function rowHtml(row: ContrastTurnRow, committed: boolean): string {
  const arm = (a: ContrastTurnRow['kept']) => `<td class="num" data-v="${num(a.rate)}">${e(pct(a.rate))} <span class="muted">${e(`${interval(a.ci)} of ${formatCount(a.n)}`)}</span></td>`;
  const mark = committed ? ' <span class="chip" data-testid="commitment-mark">point of commitment</span>' : '';
  return `<tr${committed ? ' class="changed"' : ''}><td class="num" data-v="${num(row.step)}">${e(String(row.step))}</td><td>${e(clipText(row.agent, NAME_CHARS))} <span class="muted">${e(clipText(row.name, NAME_CHARS))}</span>${mark}</td>${arm(row.regenerated)}${arm(row.kept)}<td class="num" data-v="${num(row.difference)}">${e(signedPct(row.difference))} <span class="muted">${e(interval(row.ci, signedPct))}</span></td></tr>`;
}

function runHtml(run: RunContrast, replays: number, several: boolean): string {
  const commitment = run.commitment
    ? `<p>Point of commitment: <strong>step ${e(String(run.commitment.step))} ${e(clipText(run.commitment.agent, NAME_CHARS))}</strong> (turn ${e(String(run.commitment.index))}): with it and every turn before it as recorded, the failure reproduces in at least 90 % of replays.</p>`
    : `<p>No point of commitment: no recorded prefix reproduces the failure in at least 90 % of ${e(formatCount(replays))} replays (Wilson lower bound${replays < FEWEST_COMMITTING ? `; fewer than ${FEWEST_COMMITTING} replays per arm can never commit` : ''}).</p>`;
  const errors = run.errors > 0 ? `<p class="warning">${e(formatCount(run.errors))} contrast replay${run.errors === 1 ? '' : 's'} ended in an error and ${run.errors === 1 ? 'is' : 'are'} not counted.</p>` : '';
  const rows = run.contrast.map((row) => rowHtml(row, run.commitment?.index === row.index)).join('');
  return `${several ? `<h3>${e(clipText(run.run, NAME_CHARS))}</h3>` : ''}
${commitment}
${errors}
${run.contrast.length > 0 ? contrastSvg(run) : ''}
<table class="sortable"><thead><tr><th class="num">Step</th><th>Turn</th><th class="num">Fails, regenerated (Wilson 95%)</th><th class="num">Fails, kept (Wilson 95%)</th><th class="num">Difference (Newcombe 95%)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The single-step contrast and point of commitment of a replayed run (`--replay --contrast N`, the
 * Replay view), beside the Shapley ranking: per model turn, the failure rate with it regenerated
 * and kept, their difference, and the point of commitment marked. Empty when the session has none.
 */
export function renderContrast(contrast: SessionContrast | undefined): string {
  if (!contrast || contrast.runs.length === 0) return '';
  const several = contrast.runs.length > 1;
  return `<section id="contrast" aria-labelledby="contrast-title">
<h2 id="contrast-title">Single-step contrast and point of commitment</h2>
<p class="muted">Does redoing one turn alone change the outcome? For each model turn, ${e(formatCount(contrast.replays))} replays keep the turns before it as recorded and regenerate it and everything after, against ${e(formatCount(contrast.replays))} that keep it too and regenerate what follows. The point of commitment is the earliest turn whose recorded prefix reproduces the failure in at least 90 % of replays (Wilson lower bound). The contrast tests each turn alone; the Shapley values above split the credit.</p>
${contrast.runs.map((run) => runHtml(run, contrast.replays, several)).join('\n')}
</section>`;
}
