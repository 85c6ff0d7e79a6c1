import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bundledEntry } from './bundle-cache.mjs';

/** A minimal checkout: agentblame's package.json, an entry importing a module, and esbuild in its node_modules. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'agentblame-bundle-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'agentblame', version: '0.0.0', type: 'module' }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/entry.ts'), "import { answer } from './answer.ts';\nexport const value: string = answer;\n");
  writeFileSync(join(root, 'src/answer.ts'), "export const answer = 'original';\n");
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const esbuild = dirname(createRequire(import.meta.url).resolve('esbuild/package.json'));
  symlinkSync(esbuild, join(root, 'node_modules/esbuild'), 'dir');
  return root;
}

async function valueOf(root: string): Promise<string> {
  const url = bundledEntry(root, 'src/entry.ts', 'entry');
  if (url === null) throw new Error('esbuild is a dev dependency: it should be found');
  return ((await import(url.href)) as { value: string }).value;
}

const bundles = (root: string) => readdirSync(join(root, 'node_modules/.cache/agentblame')).filter((f) => f.startsWith('entry-') && f.endsWith('.mjs'));

describe('the bundle cache', () => {
  it("is keyed by content: a copied checkout whose file changed runs the copy's code, and an unchanged copy reuses the bundle", async () => {
    const original = checkout();
    expect(await valueOf(original)).toBe('original');
    const [built] = bundles(original);

    // A copy, cache and all (as `cp -r` or a CI cache restore makes it), then one file changed in it.
    const copy = mkdtempSync(join(tmpdir(), 'agentblame-bundle-copy-'));
    cpSync(original, copy, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(copy, 'src/answer.ts'), "export const answer = 'changed in the copy';\n");
    expect(await valueOf(copy)).toBe('changed in the copy');
    // The original still runs its own code.
    expect(await valueOf(original)).toBe('original');

    // An unchanged copy reuses the bundle of the same content (nothing is built again).
    const twin = mkdtempSync(join(tmpdir(), 'agentblame-bundle-twin-'));
    cpSync(original, twin, { recursive: true, verbatimSymlinks: true });
    expect(bundledEntry(twin, 'src/entry.ts', 'entry')!.href.endsWith(`/${built}`)).toBe(true);
    expect(bundles(twin)).toEqual([built]);
  });

  it('builds again when a file changes back and forth, and a change in the entry itself counts', async () => {
    const root = checkout();
    expect(await valueOf(root)).toBe('original');
    writeFileSync(join(root, 'src/entry.ts'), "import { answer } from './answer.ts';\nexport const value: string = `${answer}!`;\n");
    expect(await valueOf(root)).toBe('original!');
    writeFileSync(join(root, 'src/answer.ts'), "export const answer = 'second';\n");
    expect(await valueOf(root)).toBe('second!');
    expect(bundles(root)).toHaveLength(3);
  });
});
