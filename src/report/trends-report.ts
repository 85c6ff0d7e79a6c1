/**
 * A self-contained HTML page of a pipeline's trends (`agentblame trend --html`): the report's
 * stylesheet under the same Content-Security-Policy (nothing loaded, no script), and the Trends
 * section the study report carries (sections/trends.ts).
 */
import { clipText, escapeHtml as e } from './escape.ts';
import { NAME_CHARS } from './sections/header.ts';
import { renderTrends, type ReportTrends } from './sections/trends.ts';
import { reportHead } from './renderReport.ts';

export function renderTrendsReport(report: ReportTrends): string {
  const title = `${clipText(report.pipeline, NAME_CHARS)} · agentblame trends`;
  const studies = new Set(report.trends.periods.flatMap((p) => p.studies)).size;
  return `${reportHead(title, false)}<header><h1>${e(title)}</h1><p class="muted">${studies} ${studies === 1 ? 'study' : 'studies'} in ${report.trends.periods.length} period${report.trends.periods.length === 1 ? '' : 's'}.</p></header>
${renderTrends(report) || '<p>No study to show.</p>'}
<footer><p>Made by agentblame trend. This file is self-contained: it loads nothing and needs no JavaScript to read.</p></footer>
</body>
</html>
`;
}
