import { describe, expect, it } from 'vitest';
import { summarizeDefinition } from '../../engine/definition-summary.ts';
import { compilePipeline } from '../../sandbox/compile.ts';
import type { LoadOutcome } from '../../pool/page/protocol.ts';
import { readToolNames } from './tool-names.ts';

/** What an analysis worker's load does, in this process. */
async function load(source: string, fileName: string): Promise<LoadOutcome> {
  try {
    return { ok: true, summary: summarizeDefinition(compilePipeline(source, fileName)) };
  } catch (error) {
    return { ok: false, problem: { message: (error as Error).message } };
  }
}

describe('tool stubs files', () => {
  it('name the tools they stub, read in the sandbox', async () => {
    const source = 'const f = (a) => "x";\nexport default { python: (code) => "ok", search: f };';
    expect(await readToolNames('tools.js', source, load)).toEqual({ ok: true, names: new Set(['python', 'search']) });
  });

  it('say what is wrong with a file that is not one', async () => {
    expect(await readToolNames('a.js', 'const x = 1;', load)).toEqual({ ok: false, problem: 'Tool stubs "a.js": expected one "export default { toolName: (args) => result }", found 0' });
    expect(await readToolNames('b.js', 'export default { python: 3 };', load)).toEqual({ ok: false, problem: expect.stringMatching(/^Tool stubs "b\.js": .*"python" is not a function/) });
    // The sandbox has no network: a file that reaches for it is refused when it is read.
    expect(await readToolNames('c.js', 'const page = fetch("https://example.com");\nexport default { python: () => page };', load)).toEqual({ ok: false, problem: expect.stringMatching(/^Tool stubs "c\.js": .*fetch/) });
  });
});
