/**
 * A self-contained HTML page of a pipeline's trends (`agentblame trend --html`): the report's
 * stylesheet under the same Content-Security-Policy (nothing loaded, no script), and the Trends
 * section the study report carries (sections/trends.ts).
 */
import { cspHashSource } from './cspHash.ts';
import { clipText, escapeHtml as e } from './escape.ts';
import { NAME_CHARS } from './sections/header.ts';
import { renderTrends, type ReportTrends } from './sections/trends.ts';
import { REPORT_CSS } from './styles.ts';

const STYLE_HASH = cspHashSource(REPORT_CSS);

export function renderTrendsReport(report: ReportTrends): string {
  const title = `${clipText(report.pipeline, NAME_CHARS)} · agentblame trends`;
  const studies = new Set(report.trends.periods.flatMap((p) => p.studies)).size;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${STYLE_HASH}; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="agentblame">
<title>${e(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1>${e(title)}</h1><p class="muted">${studies} ${studies === 1 ? 'study' : 'studies'} in ${report.trends.periods.length} period${report.trends.periods.length === 1 ? '' : 's'}.</p></header>
${renderTrends(report) || '<p>No study to show.</p>'}
<footer><p>Made by agentblame trend. This file is self-contained: it loads nothing and needs no JavaScript to read.</p></footer>
</body>
</html>
`;
}
