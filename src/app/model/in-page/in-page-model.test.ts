import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../engine/model-call.ts';
import { InPageModel } from './in-page-model.svelte.ts';
import { ModelFiles } from './model-files.ts';
import type { LoadedModel } from './wllama-runner.ts';
import { memoryDirectory } from '../../testing/memory-model-files.ts';

const whole = new Uint8Array(readFileSync(new URL('../../../../public/models/stories260K.gguf', import.meta.url)));


/** Model files in one in-memory folder. */
function kept(): ModelFiles {
  const dir = memoryDirectory();
  return new ModelFiles(async () => dir, async () => ({ quota: 1e9 }));
}

/** A loader that counts its loads, failing the first `failures` of them. */
function countingLoader(failures = 0) {
  const loads: number[] = [];
  const loader = async (file: Blob, modelId: string): Promise<LoadedModel> => {
    loads.push(file.size);
    if (loads.length <= failures) throw new Error('stories260K.gguf did not load within 60 s');
    return { complete: async (request) => ({ text: `${modelId.slice(0, 19)}: ${request.messages[0].content}`, finish: 'stop', usage: { input: 1, output: 1 } }), close: async () => {} };
  };
  return { loads, loader };
}

describe('the in-page model', () => {
  it('keeps a file, loads it once on the first request, and names it in messages', async () => {
    const { loads, loader } = countingLoader();
    const model = new InPageModel(kept(), loader);
    const id = await model.addFile(new Blob([whole]), 'stories260K.gguf');
    expect(id).toBe('gguf-sha256:270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d');
    expect(model.handles(id!)).toBe(true);
    expect(model.handles('local')).toBe(false);
    expect(model.describe(id!)).toBe('the in-page model stories260K.gguf');
    const ask = (content: string): ChatRequest => ({ model: id!, messages: [{ role: 'user', content }] });
    const answers = await Promise.all([model.complete(ask('one')), model.complete(ask('two'))]);
    expect(answers.map((a) => a.text)).toEqual(['gguf-sha256:270cba1: one', 'gguf-sha256:270cba1: two']);
    expect(loads).toEqual([whole.length]);
    expect(model.status.phase).toBe('ready');
  });

  it('remembers a failed load (one wait, not one per request) until the file is used again', async () => {
    const { loads, loader } = countingLoader(1);
    const model = new InPageModel(kept(), loader);
    const id = (await model.addFile(new Blob([whole]), 'stories260K.gguf'))!;
    const ask: ChatRequest = { model: id, messages: [{ role: 'user', content: 'x' }] };
    await expect(model.complete(ask)).rejects.toThrow('did not load within 60 s');
    await expect(model.complete(ask)).rejects.toThrow('did not load within 60 s');
    expect(loads).toHaveLength(1);
    expect(model.status).toMatchObject({ phase: 'error', message: 'stories260K.gguf did not load within 60 s' });
    await model.addFile(new Blob([whole]), 'stories260K.gguf');
    await expect(model.complete(ask)).resolves.toMatchObject({ text: expect.stringContaining(': x') });
    expect(loads).toHaveLength(2);
  });

  it('asks for a file this browser does not keep', async () => {
    const model = new InPageModel(kept(), countingLoader().loader);
    await expect(model.complete({ model: `gguf-sha256:${'ef'.repeat(32)}`, messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/is not kept in this browser: add it in Settings > Model/);
  });
});
