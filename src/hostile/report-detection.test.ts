/**
 * A report is found by scanning the HTML for its data block. Text shaped to make that scan do
 * work per pair of characters (hundreds of thousands of `<script ` with no `>`, attributes that
 * never close) must be refused in time linear in its length.
 */
import { describe, expect, it } from 'vitest';
import { extractSessionFromReport } from '../session/extract-session.ts';
import { parseOpenedFile } from '../session/opened-input.ts';

describe('report detection is linear in the file', () => {
  it('2 MB of unclosed `<script ` tags are refused as no report (quadratic scanning took minutes)', () => {
    const html = '<html>' + '<script '.repeat(250_000);
    expect(() => extractSessionFromReport(html)).toThrow(/holds no agentblame session/);
  });

  it('the same through the importer list the page and the command use', () => {
    const html = '<!doctype html>' + '<SCRIPT id=x '.repeat(160_000);
    expect(() => parseOpenedFile(html, 'forged.html')).toThrow(/holds no agentblame session/);
  });

  it('a long run of `</script ` after the block does not slow the search for its end', () => {
    const html = '<script type="application/json" id="agentblame-session">{"a":1}' + '</script '.repeat(200_000);
    expect(() => extractSessionFromReport(html)).toThrow(/not closed/);
  });
});
