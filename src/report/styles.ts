/**
 * The report's only stylesheet, embedded in a `<style>` element and allowed by its hash in the CSP.
 * System fonts only (nothing to fetch); colours are variables switched by prefers-color-scheme, so
 * charts (which use classes, never inline styles) follow the theme.
 * Must not contain `</style` (it would end the element early).
 */
export const REPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #5b6470; --line: #d8dde3; --soft: #f4f6f8; --accent: #2f5fd0;
  --pos: #c2410c; --neg: #1d63c9; --whisker: #1b1f24; --warn-bg: #fff6e0; --warn-line: #e0b54a;
  --s0: #2f5fd0; --s1: #d9534f; --s2: #2e8b57; --s3: #b8860b; --s4: #8e44ad; --s5: #16a2b8; --s6: #e67e22; --s7: #7f8c8d;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15181c; --fg: #e6e9ed; --muted: #9aa4b0; --line: #323942; --soft: #1e2227; --accent: #7fa6ff;
    --pos: #ff8f5e; --neg: #74adff; --whisker: #e6e9ed; --warn-bg: #2d2613; --warn-line: #9e7b22;
    --s0: #7fa6ff; --s1: #ff7b72; --s2: #56d364; --s3: #e3b341; --s4: #d2a8ff; --s5: #39c5cf; --s6: #ffa657; --s7: #b1bac4;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body {
  margin: 0 auto; max-width: 1040px; padding: 32px 24px 64px;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  overflow-wrap: anywhere;
}
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0.1em 0 0.6em; }
h2 { font-size: 1.3rem; margin: 2.2em 0 0.6em; padding-bottom: 0.25em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4em 0 0.4em; }
h4 { font-size: 0.95rem; margin: 1.2em 0 0.3em; color: var(--muted); }
p { margin: 0.5em 0; }
.eyebrow { margin: 0; color: var(--muted); font-size: 0.85rem; letter-spacing: 0.08em; text-transform: uppercase; }
.lead { font-size: 1.05rem; }
.muted { color: var(--muted); }
.callout { border-left: 4px solid var(--accent); background: var(--soft); padding: 0.6em 0.9em; border-radius: 0 6px 6px 0; }
.warning { border-left: 4px solid var(--warn-line); background: var(--warn-bg); padding: 0.6em 0.9em; border-radius: 0 6px 6px 0; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 0.4em 1.4em; margin: 0.6em 0 1em; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: 0.8rem; }
.facts dd { margin: 0; }
.facts.compact { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); font-size: 0.92rem; }
code, pre, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.88em; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 18em; overflow: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; font-size: 0.93rem; }
th, td { padding: 0.35em 0.7em; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { font-weight: 600; color: var(--muted); font-size: 0.82rem; border-bottom: 2px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:hover { background: var(--soft); }
.pos-text { color: var(--pos); }
.neg-text { color: var(--neg); }
th[aria-sort="ascending"] .sort::after { content: " \\2191"; }
th[aria-sort="descending"] .sort::after { content: " \\2193"; }
button { font: inherit; color: inherit; }
.sort { background: none; border: 0; padding: 0; cursor: pointer; font-weight: 600; color: inherit; text-align: inherit; }
.sort:hover { color: var(--accent); }
tr.changed td:first-child::before { content: "\\25CF  "; color: var(--accent); }
svg.chart { display: block; width: 100%; height: auto; margin: 0.4em 0 0.8em; font-size: 12px; font-family: inherit; }
svg.chart .label { fill: var(--fg); font-size: 12.5px; }
svg.chart .value, svg.chart .tick { fill: var(--muted); font-variant-numeric: tabular-nums; }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
svg.chart .axis { stroke: var(--muted); stroke-width: 1.2; }
svg.chart .bar.pos { fill: var(--pos); }
svg.chart .bar.neg { fill: var(--neg); }
svg.chart .bar.b-shapley { fill: var(--pos); }
svg.chart .bar.b-fixalone { fill: var(--s3); }
svg.chart .bar.b-loo { fill: var(--s4); }
svg.chart .whisker { stroke: var(--whisker); stroke-width: 1.5; fill: none; }
svg.chart .bar.zero { fill: var(--muted); }
svg.chart .grid.zero { stroke: var(--muted); }
svg.chart .dot { fill: var(--muted); fill-opacity: 0.55; }
svg.chart .dot.pos { fill: var(--pos); }
svg.chart .dot.neg { fill: var(--neg); }
svg.chart .end { fill: var(--fg); }
svg.chart .link { stroke: var(--muted); stroke-dasharray: 2 2; }
svg.chart.waterfall, svg.chart.strip { max-width: 48rem; }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .band { stroke: none; opacity: 0.1; }
${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `.s${i}.series { stroke: var(--s${i}); } .s${i}.band, .s${i}.series-fill { fill: var(--s${i}); }`).join('\n')}
svg.swatch { width: 12px; height: 12px; vertical-align: -1px; margin-right: 6px; }
.legend { list-style: none; padding: 0; margin: 0 0 0.5em; display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; font-size: 0.88rem; }
figure { margin: 0; }
.case-tools { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; margin: 0.6em 0; }
.case-tools input { flex: 1 1 260px; padding: 0.4em 0.6em; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); font: inherit; }
.case-tools button { padding: 0.35em 0.8em; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
details.case { border: 1px solid var(--line); border-radius: 8px; margin: 0.5em 0; background: var(--bg); }
details.case[open] { box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08); }
details.case > summary { cursor: pointer; padding: 0.55em 0.9em; display: flex; flex-wrap: wrap; gap: 0.3em 0.9em; align-items: baseline; }
details.case > summary:hover { background: var(--soft); border-radius: 8px; }
.case-id { font-weight: 600; }
.case-body { padding: 0.2em 1em 1em; border-top: 1px solid var(--line); }
.badge { font-size: 0.75rem; padding: 0.05em 0.55em; border-radius: 999px; border: 1px solid var(--line); color: var(--muted); white-space: nowrap; }
.badge.failed { border-color: var(--pos); color: var(--pos); }
.badge.passed { border-color: var(--neg); color: var(--neg); }
.badge.error, .badge.unfixable { border-color: var(--warn-line); color: var(--fg); background: var(--warn-bg); }
.summary-top { font-variant-numeric: tabular-nums; }
.summary-meta { color: var(--muted); font-size: 0.85rem; margin-left: auto; }
footer { margin-top: 3em; color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); padding-top: 1em; }
.chip { display: inline-block; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.6em; margin: 0.1em 0; font-variant-numeric: tabular-nums; }
@media print { details.case { break-inside: avoid; } .case-tools { display: none; } }
`;
