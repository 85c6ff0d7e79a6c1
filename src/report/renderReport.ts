import type { Session } from '../session/types.ts';
import { rankCasesForDrillDown } from './caseOrder.ts';
import { cspHashSource } from './cspHash.ts';
import { embedSession } from './embedSession.ts';
import { clipText, escapeHtml as e } from './escape.ts';
import { SESSION_BLOCK_ID } from '../session/extract-session.ts';
import { type FixConsidered, fixesConsidered } from './fixesConsidered.ts';
import { formatCount } from './format.ts';
import { REPORT_SCRIPT } from './script.ts';
import { renderBaselines } from './sections/baselines.ts';
import { renderBatch } from './sections/batch.ts';
import { renderCaseDetail } from './sections/caseDetail.ts';
import { renderComparison, type ReportComparison } from './sections/compare.ts';
import { NAME_CHARS, renderHeader, type ReportModelCost } from './sections/header.ts';
import { REPORT_CSS } from './styles.ts';
import { renderRepairs } from './sections/repairs.ts';
import { renderAudit } from './sections/audit.ts';
import type { StudyAudit } from '../engine/audit/audit-study.ts';
import { utf8Length } from './utf8.ts';
import { renderContrast } from './sections/contrast.ts';
import { renderTrends, type ReportTrends } from './sections/trends.ts';
import { drillDownSections, summarySections, type DrillDownSectionId, type SummarySectionId } from '../session/views.ts';

export interface RenderReportOptions {
  /**
   * The fix each step was analysed with, by name, when the caller knows it (it compiled the
   * definition). Otherwise the report names `settings.fixChoice` or "the default fix".
   */
  fixes?: readonly FixConsidered[];
  /** Another study this one was compared with (the workbench's Compare view, `blame --compare`). */
  comparison?: ReportComparison;
  /** Size target for the whole file in bytes (default 3 MB); the drill-down is cut to meet it. */
  maxBytes?: number;
  /** The credit audit of the study (`blame --audit`, the Audit view), shown as its own section. */
  audit?: StudyAudit;
  /** The trends of the study's pipeline over the stored studies (the Trends view), as their own section. */
  trends?: ReportTrends;
  /** The study's model requests at the workbench's prices (the Batch view's study cost). */
  modelCost?: ReportModelCost;
}

export const DEFAULT_MAX_BYTES = 3_000_000;
/** Part of the size target kept for the drill-down before the embedded session may take the rest. */
const DRILL_DOWN_SHARE = 0.15;
/** Room kept for the "cases left out" note and rounding. */
const SLACK_BYTES = 4_096;

const STYLE_HASH = cspHashSource(REPORT_CSS);
const SCRIPT_HASH = cspHashSource(REPORT_SCRIPT);

/** What a section of the report is drawn from. */
interface SectionInput {
  session: Session;
  options: RenderReportOptions;
  /** The steps in pipeline order. */
  stepOrder: readonly string[];
}

/**
 * How each section before the drill-down is drawn, by its id in the views list (session/views.ts),
 * which orders them; '' leaves a section out (nothing of it in this session).
 */
const SUMMARY_SECTIONS: Record<SummarySectionId, (input: SectionInput) => string> = {
  batch: ({ session }) => renderBatch(session.batch, session.settings.delta, session.results),
  baselines: ({ session, stepOrder }) => renderBaselines(session.results, stepOrder),
  repairs: ({ session, stepOrder }) => renderRepairs(session.results, stepOrder),
  compare: ({ options }) => (options.comparison ? renderComparison(options.comparison) : ''),
  audit: ({ options }) => (options.audit ? renderAudit(options.audit) : ''),
  contrast: ({ session }) => renderContrast(session.contrast),
  trends: ({ options }) => (options.trends ? renderTrends(options.trends) : ''),
};

/** The drill-down sections, each given the bytes it may take and the case fields the embedded session left out. */
const DRILL_DOWN_SECTIONS: Record<DrillDownSectionId, (input: SectionInput, budgetBytes: number, omitted: readonly string[]) => string> = {
  cases: ({ session }, budgetBytes, omitted) => renderCases(session, budgetBytes, omitted),
};

/**
 * The report's head up to `<body>`: its stylesheet and, with `script`, its script, each allowed by
 * its hash under a `default-src 'none'` policy (also the head of `agentblame trend --html`).
 */
export function reportHead(title: string, script: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${STYLE_HASH};${script ? ` script-src ${SCRIPT_HASH};` : ''} base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="agentblame">
<title>${e(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
`;
}

/**
 * A self-contained HTML report of a session: pure (no DOM, Node or network API, no clock: the date
 * shown is the session's own), so the workbench, workers and the headless command share it.
 *
 * Nothing is loaded from anywhere: one inline stylesheet and one inline script, each allowed by its
 * SHA-256 hash under a `default-src 'none'` Content-Security-Policy, charts as inline SVG. The page
 * is complete with JavaScript off; the script only adds sorting and a case filter. Every string from
 * the session is HTML-escaped, and the session itself is embedded as inert JSON so the report can be
 * reopened (see extractSessionFromReport).
 */
export function renderReport(session: Session, options: RenderReportOptions = {}): string {
  checkSession(session);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const fixes = fixesConsidered(session, options.fixes);
  const stepOrder = fixes.map((f) => f.step);

  const head = reportHead(`${clipText(session.name, NAME_CHARS)} · agentblame report`, true);
  const input: SectionInput = { session, options, stepOrder };
  const sections = [
    renderHeader(session, fixes, options.modelCost),
    ...summarySections().map((id) => SUMMARY_SECTIONS[id](input)),
  ].filter((section) => section !== '').join('\n');
  const footer = `<footer><p>Made by agentblame from the session saved ${e(clipText(session.updatedAt, NAME_CHARS))}. This file is self-contained: it loads nothing and needs no JavaScript to read. It carries its session data, so dropping it into the agentblame workbench reopens the analysis.</p></footer>
<script>${REPORT_SCRIPT}</script>
`;
  const fixedBytes = utf8Length(head) + utf8Length(sections) + utf8Length(footer) + SLACK_BYTES;
  const embedded = embedSession(session, Math.max(0, maxBytes - fixedBytes - maxBytes * DRILL_DOWN_SHARE));
  const dataBlock = `<script type="application/json" id="${SESSION_BLOCK_ID}">${embedded.json}</script>
</body>
</html>
`;
  const casesBudget = maxBytes - fixedBytes - utf8Length(dataBlock);
  // The drill-down sections share what is left of the size target, in their order.
  let left = casesBudget;
  const drillDown = drillDownSections().map((id) => {
    const html = DRILL_DOWN_SECTIONS[id](input, left, embedded.omitted);
    left -= utf8Length(html) + 1;
    return html;
  });
  return `${head}${sections}\n${drillDown.join('\n')}\n${footer}${dataBlock}`;
}

/**
 * The per-case drill-down, most important cases first, cut to fit `budgetBytes`; when it cuts it
 * says how many cases it left out and where they still are.
 */
function renderCases(session: Session, budgetBytes: number, omitted: readonly string[]): string {
  const ranked = rankCasesForDrillDown(session.results);
  const items: string[] = [];
  let used = 0;
  for (const [index, result] of ranked.entries()) {
    const item = renderCaseDetail(result, index, index === 0, session.settings.budget ?? Infinity);
    const bytes = utf8Length(item) + 1;
    if (used + bytes > budgetBytes) break;
    items.push(item);
    used += bytes;
  }
  const left = ranked.length - items.length;
  const notes: string[] = [];
  if (left > 0) {
    notes.push(
      `<p class="warning">To keep this report small, the drill-down shows the ${e(formatCount(items.length))} most-blamed of ${e(formatCount(ranked.length))} cases (cases with errors first, then failures by their largest Shapley value) and leaves out ${e(formatCount(left))}. Every case is still in the session data inside this file; drop the report into the workbench to see them all.</p>`,
    );
  }
  if (omitted.length) {
    notes.push(
      `<p class="warning">The session data inside this file leaves out the per-case ${e(omitted.join(', '))} to keep the file small; the Shapley values, baselines and settings are complete.</p>`,
    );
  }
  const intro = `<p class="muted">Open a case for its Shapley values beside the baselines, the value of every coalition of fixes, and the outputs of the factual and the all-fixed run.</p>`;
  return `<section id="cases" aria-labelledby="cases-title">
<h2 id="cases-title">Cases</h2>
${intro}
${notes.join('\n')}
<div id="case-list">
${items.join('\n')}
</div>
</section>`;
}

/** A clear error for a value that is not a session, rather than a TypeError deep in a section. */
function checkSession(session: Session): void {
  const where = (field: string) => `renderReport: session.${field}`;
  if (typeof session !== 'object' || session === null) throw new Error('renderReport: expected a session object.');
  if (!Array.isArray(session.results)) throw new Error(`${where('results')} must be an array of case results.`);
  if (!Array.isArray(session.cases)) throw new Error(`${where('cases')} must be an array of cases.`);
  if (typeof session.settings !== 'object' || session.settings === null) throw new Error(`${where('settings')} is missing.`);
  for (const field of ['name', 'fileName', 'updatedAt'] as const) {
    if (typeof session[field] !== 'string') throw new Error(`${where(field)} must be a string.`);
  }
  session.results.forEach((result, i) => {
    if (!result || typeof result.id !== 'string' || !Array.isArray(result.players)) {
      throw new Error(`${where(`results[${i}]`)} is not a case result (needs an id and players).`);
    }
  });
}
