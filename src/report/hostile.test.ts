import { describe, expect, it } from 'vitest';
import { extractSessionFromReport } from '../session/extract-session.ts';
import { HOSTILE_STRINGS, LONG_HOSTILE, hostileSession } from './fixtures/hostileSession.ts';
import { renderReport } from './renderReport.ts';

/** Every element the renderer writes. Any other tag (or a comment) can only come from unescaped input. */
const OWN_TAGS = new Set(
  ('html head meta title style body header section h1 h2 h3 h4 p dl div dt dd span time table thead tbody tr th td ' +
    'strong pre ul li details summary figure figcaption svg g line text rect circle path polygon polyline footer script').split(' '),
);

const session = hostileSession();
const fixes = session.results[0].players.map((step, i) => ({ step, fix: HOSTILE_STRINGS[(i + 3) % HOSTILE_STRINGS.length] }));
// A generous size target so nothing is cut or trimmed: every field must come through whole.
const html = renderReport(session, { fixes, maxBytes: 50_000_000 });

describe('renderReport with hostile strings in every field', () => {
  it('writes no markup but its own: every < starts one of its own tags', () => {
    const tags = [...html.matchAll(/<(\/?)([^\s>/]*)/g)].map((m) => m[2].toLowerCase());
    const foreign = tags.filter((tag) => tag !== '!doctype' && !OWN_TAGS.has(tag));
    expect(foreign).toEqual([]);
    expect(html).not.toContain('<!--');
    expect(html.match(/<script\b/g)?.length).toBe(2);
    expect(html.match(/<\/script>/g)?.length).toBe(2);
    expect(html.match(/<style\b/g)?.length).toBe(1);
    // Inside our own tags, outside quoted values, no event handler, link or resource attribute.
    for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi)) {
      expect(tag.replace(/"[^"]*"/g, '""'), tag.slice(0, 80)).not.toMatch(/\s(on[a-z]+|href|src|style)\s*=/i);
    }
  });

  it('contains no hostile string raw; each appears escaped', () => {
    for (const hostile of HOSTILE_STRINGS.filter((s) => /[<>&"']/.test(s))) {
      expect(html.includes(hostile), JSON.stringify(hostile.slice(0, 40))).toBe(false);
    }
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toContain('&quot;&#39;&gt;&lt;svg onload=alert(1)&gt;');
  });

  it('keeps the session data block inert and complete', () => {
    const block = html.match(/<script type="application\/json" id="agentblame-session">([\s\S]*?)<\/script>/)![1];
    expect(block).not.toMatch(/[<>\u2028\u2029]/);
    const { revision: _revision, ...withoutRevision } = session;
    expect(extractSessionFromReport(html)).toEqual(JSON.parse(JSON.stringify(withoutRevision)));
  });

  it('clips the very long string for display and says so', () => {
    expect(html.includes(LONG_HOSTILE)).toBe(false);
    expect(html).toContain(`${'A'.repeat(300)}… (${LONG_HOSTILE.length - 300} more characters)`);
  });

  it('does not read "__proto__" or "constructor" steps from Object.prototype', () => {
    const body = html.replace(/<script[\s\S]*?<\/script>/g, '');
    expect(body).not.toMatch(/NaN|undefined|\[object|function|∞/);
  });
});
