/**
 * The analysis frame's policy (public/analysis-frame.html) is what its sandboxed children and their
 * workers inherit: it must allow the children's one inline script by its hash, eval for SES and
 * blob: workers, and nothing on the network; public/_headers must send the same policy.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../../vite.config.ts';

const root = new URL('../../../', import.meta.url);
const frameHtml = readFileSync(new URL('public/analysis-frame.html', root), 'utf8');
const headers = readFileSync(new URL('public/_headers', root), 'utf8');

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name, values]));
}

function headerPolicy(path: string): string {
  const block = headers.split(/\n(?=\S)/).find((text) => text.split('\n')[0].trim() === path);
  const line = block?.split('\n').find((text) => text.trim().startsWith('Content-Security-Policy:'));
  if (!line) throw new Error(`public/_headers has no Content-Security-Policy for ${path}`);
  return line.trim().slice('Content-Security-Policy:'.length).trim();
}

const metaPolicy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(frameHtml)?.[1] ?? '';
const childScript = /<script type="text\/plain" id="child-script">([\s\S]*?)<\/script>/.exec(frameHtml)?.[1];

describe('the analysis frame policy', () => {
  it('allows the child frames\' script by its hash, eval and blob: workers, and no network', () => {
    expect(childScript).toBeDefined();
    const hash = createHash('sha256').update(childScript!, 'utf8').digest('base64');
    const meta = directives(metaPolicy);
    expect(meta.get('script-src')).toEqual(["'self'", "'unsafe-eval'", `'sha256-${hash}'`]);
    expect(meta.get('worker-src')).toEqual(['blob:']);
    expect(meta.get('connect-src')).toEqual(["'none'"]);
    expect(meta.get('default-src')).toEqual(["'none'"]);
  });

  it('is sent by public/_headers as in the <meta> tag, framed only by the page\'s origin', () => {
    expect(headerPolicy('/analysis-frame.html')).toBe(`${metaPolicy}; frame-ancestors 'self'`);
  });

  it('leaves the page without eval (WebAssembly compiling only, for the in-page model), framing only its own origin, as its <meta> and headers say', () => {
    const page = directives(PAGE_CSP);
    expect(page.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(page.get('frame-src')).toEqual(["'self'"]);
    for (const path of ['/', '/index.html']) expect(headerPolicy(path)).toBe(`${PAGE_CSP}; frame-ancestors 'none'`);
  });
});
