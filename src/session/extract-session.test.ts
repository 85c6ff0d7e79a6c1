import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForScriptBlock } from '../report/embedJson.ts';
import { extractSessionFromReport } from './extract-session.ts';

const page = (json: string, attributes = 'type="application/json" id="agentblame-session"') =>
  `<!doctype html><html><body><p>x</p><script ${attributes}>${json}</script></body></html>`;

describe('jsonForScriptBlock', () => {
  it('escapes < > & U+2028 U+2029 so the block cannot end or change tokenizer state', () => {
    const text = jsonForScriptBlock({ s: '</script><!--<script>&\u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toBe('{"s":"\\u003c/script\\u003e\\u003c!--\\u003cscript\\u003e\\u0026\\u2028\\u2029"}');
  });
  it('round-trips any JSON value through JSON.parse', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = jsonForScriptBlock(value);
        expect(text).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
  it('says so when the value is not serialisable', () => {
    expect(() => jsonForScriptBlock(undefined)).toThrow(/not JSON-serialisable/);
  });
});

describe('extractSessionFromReport', () => {
  it('returns the embedded JSON, whatever strings it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const value = { format: 'agentblame-session', name: s };
        expect(extractSessionFromReport(page(jsonForScriptBlock(value)))).toEqual(value);
      }),
    );
  });
  it('skips other scripts and accepts reordered or unquoted attributes', () => {
    const html = `<script>var a = "</p>";</script>${page('{"a":1}', "id=agentblame-session type='application/json'")}`;
    expect(extractSessionFromReport(html)).toEqual({ a: 1 });
  });
  it('rejects HTML without a session block', () => {
    expect(() => extractSessionFromReport('<html><body>hello</body></html>')).toThrow(/holds no agentblame session/);
    expect(() => extractSessionFromReport(page('{}', 'id="agentblame-session-2" type="application/json"'))).toThrow(/holds no agentblame session/);
  });
  it('rejects a block of the wrong type, a truncated file and broken JSON, saying which', () => {
    expect(() => extractSessionFromReport(page('{}', 'id="agentblame-session"'))).toThrow(/not of type application\/json/);
    expect(() => extractSessionFromReport('<script type="application/json" id="agentblame-session">{"a":')).toThrow(/not closed/);
    expect(() => extractSessionFromReport(page('{"a":'))).toThrow(/not valid JSON/);
  });
});
