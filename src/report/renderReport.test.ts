import { describe, expect, it } from 'vitest';
import { importSessionText } from '../session/session-file.ts';
import { cspHashSource } from './cspHash.ts';
import { extractSessionFromReport } from '../session/extract-session.ts';
import { REFUND_FIXES, refundSession } from './fixtures/refundSession.ts';
import { renderReport } from './renderReport.ts';
import { REPORT_SCRIPT } from './script.ts';
import { REPORT_CSS } from './styles.ts';

const html = renderReport(refundSession(), { fixes: REFUND_FIXES });
/** The snapshot names the stylesheet and the script (their CSP hashes still change with them). */
const STYLE_MARK = '/* REPORT_CSS of src/report/styles.ts */';
const SCRIPT_MARK = '/* REPORT_SCRIPT of src/report/script.ts */';

/** Text content of the report with tags removed and entities decoded (enough for assertions). */
function visibleText(page: string): string {
  return page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('renderReport on the refund demo', () => {
  it('matches the stored snapshot (its stylesheet and script, written once in styles.ts and script.ts, named there)', async () => {
    expect(html).toContain(`<style>${REPORT_CSS}</style>`);
    expect(html).toContain(REPORT_SCRIPT);
    const shape = html.replace(REPORT_CSS, STYLE_MARK).replace(REPORT_SCRIPT, SCRIPT_MARK);
    await expect(shape).toMatchFileSnapshot('./__snapshots__/refund-report.html');
  });

  it('states every setting, the date of the session and the fixes, saying blame is relative to them', () => {
    const text = visibleText(html);
    for (const fragment of [
      'refund-policy.trace.json', '2026-03-02 09:31 UTC', 'recorded:', 'exact Shapley over every coalition (chosen by auto)', 'δ = 0.05',
      'Total step cost 14 units', 'Blame is relative to these fixes.',
      'planner date constraint', 'retriever drop superseded docs', 'writer cite sources', 'reviewer check cited claims',
    ]) expect(text).toContain(fragment);
    // What ran was exact: the Monte Carlo knobs (stop rule, budget, estimator) are not claimed.
    for (const fragment of ['Stop rule', 'Budget per case', 'estimator']) expect(text).not.toContain(fragment);
  });

  it('shows Shapley 5/12 and 1/12 with three decimals, beside the baselines and the coalition table', () => {
    const text = visibleText(html);
    for (const part of ['planner +0.417 [+0.417, +0.417] 41.7 % 100.0 % 0', 'writer +0.083 0.000 0.000 0 of 1', 'reviewer +0.083 0.000 0.000 last touch', 'writer, reviewer 2 1.000', 'none (the factual run) 0 0.000', 'Refunds are accepted within 90 days.', 'Refunds are accepted within 30 days [policy-2026].']) expect(text).toContain(part);
    // Batch bars, strip plot, baselines and the case's waterfall.
    expect(html.match(/<svg class="chart/g)?.length).toBe(4);
  });

  it('loads nothing: no URL, no external resource, only hashed inline style and script', () => {
    expect(html).not.toMatch(/https?:|\/\/[a-z]|\bsrc=|\bhref=|@import|url\(/i);
    const style = html.match(/<style>([\s\S]*?)<\/style>/)![1];
    const script = html.match(/<script>([\s\S]*?)<\/script>/)![1];
    const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)![1];
    expect(csp).toBe(`default-src 'none'; style-src ${cspHashSource(style)}; script-src ${cspHashSource(script)}; base-uri 'none'; form-action 'none'`);
    expect(html.match(/<style\b/g)?.length).toBe(1);
    expect(html.match(/<script\b/g)?.length).toBe(2);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  });

  it('embeds the session (without its storage revision) so it can be reopened', () => {
    const { revision: _revision, ...withoutRevision } = refundSession();
    expect(extractSessionFromReport(html)).toEqual(JSON.parse(JSON.stringify(withoutRevision)));
  });

  it('is accepted by the session importer, with the infinite budget restored', () => {
    const reopened = importSessionText(html);
    expect(reopened.results[0].shapley?.planner).toBe(5 / 12);
    expect(reopened.settings.budget).toBe(Infinity);
    expect(reopened.name).toBe('refund-policy');
  });

  it('does not depend on the clock or anything but its input', () => {
    expect(renderReport(refundSession(), { fixes: REFUND_FIXES })).toBe(html);
  });

  it('names the default fix when the fix names are unknown', () => {
    expect(visibleText(renderReport(refundSession()))).toContain('planner its default fix (the first one the definition lists)');
  });

  it('says a game study\'s fixes were applied outside agentblame, since it has no definition', () => {
    const { pipeline: _definition, ...gameStudy } = refundSession();
    const text = visibleText(renderReport(gameStudy));
    expect(text).toContain('planner the fix behind the game table’s values (computed outside agentblame)');
    expect(text).not.toContain('the first one the definition lists');
  });

  it('says when the results are partial or there is no batch yet', () => {
    const session = refundSession();
    session.status = 'cancelled';
    delete session.batch;
    const text = visibleText(renderReport(session));
    expect(text).toContain('Partial results: the analysis was cancelled after 1 of 1 cases.');
    expect(text).toContain('This session has no batch summary yet');
  });

  it('rejects something that is not a session with an error naming the field', () => {
    expect(() => renderReport({ ...refundSession(), results: undefined } as never)).toThrow('renderReport: session.results must be an array');
    const session = refundSession();
    (session.results[0] as { players?: unknown }).players = undefined;
    expect(() => renderReport(session)).toThrow('renderReport: session.results[0] is not a case result');
  });
});
