/**
 * The analysis frame's policy (public/analysis-frame.html) is what its sandboxed children and their
 * workers inherit: it must allow the children's one inline script by its hash, eval for SES and
 * blob: workers, and nothing on the network; public/_headers must send the same policy.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CROSS_ORIGIN_ISOLATION, PAGE_CSP } from '../../../vite.config.ts';
import { WAIT_CHUNK_BYTES, WAIT_HEADER_BYTES, waitChunks, writeWaitChunk } from '../../pool/page/wait-channel.ts';

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

  it('cross-origin isolates every path as the dev and preview servers do (shared memory for waiting rounds)', () => {
    const block = headers.split(/\n(?=\S)/).find((text) => text.split('\n')[0].trim() === '/*')!;
    for (const [name, value] of Object.entries(CROSS_ORIGIN_ISOLATION)) expect(block).toContain(`  ${name}: ${value}\n`);
  });
});

/** Runs the children's script with stand-ins for its frame; answers the worker's first message and the control port. */
function startChild(isolated: boolean) {
  const listeners: ((event: unknown) => void)[] = [];
  const toWorker: Record<string, unknown>[] = [];
  const parent = {};
  class StandInWorker {
    addEventListener() {}
    postMessage(message: Record<string, unknown>) {
      toWorker.push(message);
    }
  }
  runInNewContext(childScript!, {
    addEventListener: (_type: string, listener: (event: unknown) => void) => listeners.push(listener),
    removeEventListener: () => {},
    parent,
    self: { crossOriginIsolated: isolated },
    Worker: StandInWorker,
    URL: { createObjectURL: () => 'blob:stand-in', revokeObjectURL: () => {} },
    Blob,
    SharedArrayBuffer,
    Int32Array,
    Uint8Array,
    Atomics,
  });
  const control = { posted: [] as unknown[], onmessage: null as ((event: { data: unknown }) => void) | null, postMessage(message: unknown) { this.posted.push(message); } };
  listeners[0]({ source: parent, data: { agentblameWorkerCode: new Blob(['']) }, ports: [{}, control] });
  return { connect: toWorker[0], control };
}

describe("the analysis frame's children", () => {
  it('cross-origin isolated, give their worker a wait buffer and write each response chunk in as writeWaitChunk does', () => {
    const { connect, control } = startChild(true);
    const buffer = connect.agentblameWaitBuffer as SharedArrayBuffer;
    expect(buffer.byteLength).toBe(WAIT_HEADER_BYTES + WAIT_CHUNK_BYTES);
    const expected = new SharedArrayBuffer(buffer.byteLength);
    for (const chunk of [...waitChunks({ answer: { text: 'Monday', finish: 'stop', usage: { input: 3, output: 1 } } }), ...waitChunks({ error: 'HTTP 500' })]) {
      control.onmessage!({ data: { agentblameWaitChunk: chunk } });
      writeWaitChunk(expected, chunk);
      expect(Buffer.from(buffer).equals(Buffer.from(expected))).toBe(true);
    }
    // Heartbeat pings are still echoed, and nothing else was.
    control.onmessage!({ data: { ping: 1 } });
    expect(control.posted).toEqual([{ ping: 1 }]);
  });

  it('not isolated, give their worker no buffer (its rounds restart)', () => {
    const { connect } = startChild(false);
    expect(Object.keys(connect)).toEqual(['agentblameConnect']);
  });
});
