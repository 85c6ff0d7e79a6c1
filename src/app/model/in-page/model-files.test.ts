import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModelFiles, storageProblem } from './model-files.ts';
import { memoryDirectory } from '../../testing/memory-model-files.ts';

const whole = new Uint8Array(readFileSync(new URL('../../../../public/models/stories260K.gguf', import.meta.url)));


describe('model files kept in this browser', () => {
  it('keeps a file once under its hash, lists it with name and size, and deletes it', async () => {
    const dir = memoryDirectory();
    const files = new ModelFiles(async () => dir, async () => ({ quota: 1e9, usage: 0 }));
    const kept = await files.add(new Blob([whole]), 'stories260K.gguf');
    expect(kept).toMatchObject({ sha256: '270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d', name: 'stories260K.gguf', size: whole.length });
    expect((await files.add(new Blob([whole]), 'copy.gguf')).name).toBe('stories260K.gguf');
    expect((await files.list()).map((f) => f.name)).toEqual(['stories260K.gguf']);
    expect((await files.file(kept.sha256)).file.size).toBe(whole.length);
    await files.remove(kept.sha256);
    expect(dir.names()).toEqual([]);
    await expect(files.file(kept.sha256)).rejects.toThrow(/not kept in this browser/);
  });

  it('refuses a truncated file, and one the browser has no room for, before keeping anything', async () => {
    const dir = memoryDirectory();
    const files = new ModelFiles(async () => dir, async () => ({ quota: 2e6, usage: 1.5e6 }));
    await expect(files.add(new Blob([whole.subarray(0, 300_000)]), 'cut.gguf')).rejects.toThrow('cut.gguf is truncated');
    await expect(files.add(new Blob([whole]), 'stories260K.gguf')).rejects.toThrow('The model file is 1.2 MB, but this browser can keep only 0.5 MB more');
    expect(dir.names()).toEqual([]);
  });

  it('does not refuse when the browser gives no estimate', async () => {
    expect(await storageProblem(1e12, undefined)).toBeNull();
    expect(await storageProblem(1e12, async () => ({}))).toBeNull();
  });
});
